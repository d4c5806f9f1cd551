import { createCipheriv } from 'node:crypto';
import { companyFingerprint, openCompanyKeyWithRecovery } from './company-keys';
import { decryptContent, decryptFile, decryptNote } from './content';
import { DecryptionError } from './errors';
import { fromBase64Url, toBase64Url, utf8Encode } from './encoding';
import { fingerprintOf } from './fingerprint';
import { createIncidentCredentials, openIncidentWithGrant } from './incident';
import { notesKeyFromTeamSecret, passphraseFromTeamSecret } from './incident-key';
import { openPersonSecret, personFingerprint, type PersonKeys } from './person-keys';
import { parseRecoveryKey } from './recovery-key';
import { deriveStaffSecrets, unlockKeyFromPrf } from './staff-secrets';
import { aesDecrypt, aesEncrypt, importAesKey, importPrivateKeyPkcs8 } from './webcrypto';

/**
 * Known answers of every derivation that opens a person's or the company's keys. Each expected value was computed
 * once by another route — node:crypto's `hkdfSync`, `createCipheriv('aes-256-gcm')`, `createHash`, `createECDH` and
 * @node-rs/argon2, with a base32 written apart — and is written here as a literal: changing an info string, a salt, a
 * size or an encoding breaks a test instead of silently locking everyone out of their keys (a change is a new
 * version, PARAMS). The inputs are counting bytes, so the vectors can be recomputed from this description alone.
 */
const bytesFrom = (start: number, length: number) => Uint8Array.from({ length }, (_, i) => (start + i) & 255);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** 16 bytes 0x00…0x0f */
const SALT = toBase64Url(bytesFrom(0, 16));
const PASSWORD = 'correct horse battery staple';
/** 12 bytes 0xa0…0xab: an IV fixed for the vectors only (sealing always draws a random one). */
const IV = bytesFrom(0xa0, 12);
const PLAINTEXT = utf8Encode('whistle known answer');

/** Public keys of the P-256 private scalars 0x01…0x20 (ECDH), 0x02…0x21 (ECDSA) and 0x03…0x22 (company). */
const PERSON = {
  public_key: 'v1.BFFcPW6545a5BNP-yn9U_c0MwemXvzddylFa0KbDtANfRTa-OlDzGPv5pUdZAqIhUCvvDVfgjFOyzApW8X2fk1Q',
  signing_public_key: 'v1.BKxG0pU9v1oAhBb_QGqskpwyqR7WL9UV0X1IKCdzoUl-LYUPTf0CsG1p0_01klWdIX1zylZwsC-7aS48-VwHbDc',
};
const COMPANY_PUBLIC_KEY = 'v1.BIOYHEkBJMfQXSnJIqgV6P0_xDCQT03J6afhD-XaqYjw2oKHVMEDZkScr7MrldJlmG0ZlBG5EyHG_waMgS0jxdw';
/** Its private key 0x03…0x22 as pkcs8. */
const COMPANY_PKCS8 =
  'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISKhRANCAASDmBxJASTH0F0pySKoFej9P8QwkE9Nyemn4Q_l2qmI8NqCh1TBA2ZEnK-zK5XSZZhtGZQRuRMhxv8GjIEtI8Xc';

/** What `key` seals with the fixed IV, and whether the reference raw key opens it: the key is not extractable. */
async function sealsLike(key: CryptoKey, rawHex: string): Promise<string> {
  const sealed = await aesEncrypt(key, IV, PLAINTEXT);
  const reference = await importAesKey(Uint8Array.from(Buffer.from(rawHex, 'hex')), ['decrypt']);
  expect(hex(await aesDecrypt(reference, IV, sealed))).toBe(hex(PLAINTEXT));
  return toBase64Url(sealed);
}

describe('known answers of the key derivations (v2)', () => {
  it('when a password is derived (argon2id-v1: 64 MiB, 3 passes), then its unlock key is HKDF(Argon2id master, "whistle/v2/staff/unlock-key")', async () => {
    const { unlockKey } = await deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v1');
    expect(await sealsLike(unlockKey, '635c4e43b79f77c797e79fb56e3c08b4510c48a568c4b75b5439eada27a83fbc')).toBe(
      'AXdAZr0p8zjnQnW0dLj9N99nWDrs1ww9yzqfDbR6YonJlHLs',
    );
  });

  it('when a password is derived (argon2id-v2: 64 MiB, 2 passes), then its unlock key is HKDF(Argon2id master, "whistle/v2/staff/unlock-key")', async () => {
    const { unlockKey } = await deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2');
    expect(await sealsLike(unlockKey, '93acb1883feabd10b29ec757f9f2a7f0eed0f4c3f7018ab8a48d0e05ab952c5d')).toBe(
      '6c7QQqIfJe3yLr4R4I9cxaq2Sv_66D5rm16Y8iCrd4sSLUsn',
    );
  });

  it('when a passkey gives its PRF output, then its sealing key is HKDF(PRF, "whistle/v2/staff/passkey-unlock-key")', async () => {
    /** 32 bytes 0x20…0x3f, as WebAuthn's `prf.results.first` */
    const key = await unlockKeyFromPrf(bytesFrom(0x20, 32));
    expect(await sealsLike(key, 'dbe9d82eb8a1b7c5829547ac18b5841573491e9c2b4e22041fccfa184250d6be')).toBe(
      'vbRQ5DciLdBoXtE_0u10AgHoCVINPNQ5WwxBVPBP9p7BDlkl',
    );
    // A copy sealed under it by the other route, the person's public keys as associated data, opens.
    const sealed = 'v2.oKGio6Slpqeoqaqr.ublY-yYqaIBmQs0n0u1mCRHtCVTUOLOs8bKOZuw1P70jejy2';
    expect(Buffer.from(await openPersonSecret(key, sealed, PERSON)).toString()).toBe('sealed person secret');
  });

  it('when a recovery kit is typed back, then its key and checksum read as printed, and it opens the copy sealed under HKDF(key, salt, "whistle/v2/recovery/company-private-key")', async () => {
    /** The kit of the key 0x40…0x5f: 256 bits and the first 16 bits of its SHA-256, Crockford base32. */
    const kit = '810M4 GT48N 34EJ2 9995M RKAE9 X852M JKAHA NCNTR B5D5P Q2XBS FWMAG';
    const recovery = await parseRecoveryKey(kit.toLowerCase());
    expect(hex(recovery.key)).toBe(hex(bytesFrom(0x40, 32)));
    expect(recovery.text).toBe(kit);
    const sealed =
      'v2.sLGys7S1tre4ubq7vL2-vw.oKGio6Slpqeoqaqr.ZE3Du-KAa3P6eJPptP8WYyFrYUPFZJcmBGSrYMCJLVH2DOsDxKiGoQE6DGhU66MphO-qJkaL7hhjgjNA0IoKaJnA2KohaZ-WEPttYTkyJn4blpNigeth2796UuMcgK5nasGRgxwHdhUcInKt-Z6iYbwtxOHG1RRPSvrJcLX-w6rUvDEbSU72LfCteytGG1ADF5kJwbbKSwR7gw';
    expect(toBase64Url(await openCompanyKeyWithRecovery(recovery, sealed, COMPANY_PUBLIC_KEY))).toBe(COMPANY_PKCS8);
  });

  it('when keys are fingerprinted, then it is SHA-256("whistle/v2/fingerprint" ‖ points) cut to 100 bits of Crockford base32', async () => {
    expect(await personFingerprint(PERSON)).toBe('8VZH 0EZV QD2G WFVK 24G7');
    expect(await fingerprintOf(PERSON.public_key, PERSON.signing_public_key)).toBe('8VZH 0EZV QD2G WFVK 24G7');
    expect(await companyFingerprint(COMPANY_PUBLIC_KEY)).toBe('J3BW KQEC 39ZM 6000 67J0');
  });
});

describe('known answers of bound content (v2)', () => {
  /*
   * Sealed with node:crypto to the key pair 0x03…0x22 as an incident's: ephemeral P-256 scalar 0x60…0x7f, HKDF-SHA-256
   * (salt = ephemeral point, info "whistle/v2/wrap/content" or ".../file-key"), AES-256-GCM with IV 0xa0…0xab and the
   * JSON array ["v2", <incident public key>, <kind>, <detail>] as associated data. One ephemeral key and IV for
   * every vector, for the vectors only (sealing always draws fresh ones).
   */
  const EPHEMERAL_AND_IV =
    'v2.BL-X0O4YZqrG-Agm663ELz2B4ba48pj10-vnVCt8tIOn3o8U3d6aoudlsuYOzmDPobCVaDqPb2Kvi6zuf036GOo.oKGio6Slpqeoqaqr.';
  const DESCRIPTION = EPHEMERAL_AND_IV + '4pN5qU5jETxdJbKdhRQczhZuDie_Q6x0OqetYF2NiRsMmb_r';
  const STAFF_MESSAGE = EPHEMERAL_AND_IV + '4pN5qU5jETxdJbKdhRQczhZuDielod5tTcupc02WXNyRx4gH';
  const FILE_NAME = EPHEMERAL_AND_IV + '-Z50vV99WmxSLYKN3piXqoH6soUyONcsvLg';
  /** The file key 0x40…0x5f. */
  const FILE_KEY = EPHEMERAL_AND_IV + '6zqm9oLvljaqysfKWnGslNg3l29eo5rIQXFQARPPXN0hHPbiGueBXcCgiZ6c3MGb';
  const incident = async () => ({
    publicKey: COMPANY_PUBLIC_KEY,
    privateKey: await importPrivateKeyPkcs8(fromBase64Url(COMPANY_PKCS8)),
  });

  it('when a field or a staff message sealed by the other route is opened with its binding, then it reads; with another, it is refused', async () => {
    const handle = await incident();
    const description = { kind: 'field', name: 'description' } as const;
    const staff = { kind: 'message', from: 'staff' } as const;
    expect(await decryptContent(handle, DESCRIPTION, description)).toBe('whistle known answer');
    expect(await decryptContent(handle, STAFF_MESSAGE, staff)).toBe('whistle known answer');
    await expect(decryptContent(handle, DESCRIPTION, staff)).rejects.toThrow(DecryptionError);
    await expect(decryptContent(handle, STAFF_MESSAGE, { kind: 'message', from: 'discloser' })).rejects.toThrow(
      DecryptionError,
    );
  });

  it('when a file key wrapped by the other route (purpose file-key, kind file-key) is opened, then the file reads', async () => {
    const handle = await incident();
    const text = utf8Encode('whistle known answer');
    const padded = new Uint8Array(24);
    padded.set([0, 0, 0, text.length], 0);
    padded.set(text, 4);
    const cipher = createCipheriv('aes-256-gcm', bytesFrom(0x40, 32), IV);
    cipher.setAAD(Uint8Array.of(2));
    const sealed = Buffer.concat([cipher.update(padded), cipher.final(), cipher.getAuthTag()]);
    const file = {
      ciphertext: Buffer.concat([Uint8Array.of(2), IV, sealed]),
      encrypted_key: FILE_KEY,
      encrypted_file_name: FILE_NAME,
    };
    const opened = await decryptFile(handle, file);
    expect([Buffer.from(opened.content).toString(), opened.fileName]).toEqual(['whistle known answer', 'ledger.pdf']);
    // A field's ciphertext as the name is refused.
    await expect(decryptFile(handle, { ...file, encrypted_file_name: DESCRIPTION })).rejects.toThrow(DecryptionError);
    // A key wrap presented as a text is refused too.
    await expect(decryptContent(handle, FILE_KEY, { kind: 'file-name' })).rejects.toThrow(DecryptionError);
  });
});

describe('known answers of per-case grants (v2)', () => {
  /*
   * Made with node:crypto: the incident is the key pair 0x03…0x22 (COMPANY_PUBLIC_KEY's), its passphrase the bytes
   * 0x40…0x5f; its private key (pkcs8) sealed under HKDF-SHA-256(passphrase, salt 0x00…0x0f,
   * "whistle/v1/incident-private-key") with AES-256-GCM, IV 0xa0…0xab, the incident public key as associated data.
   * The grant: ECIES to the person's ECDH key (scalar 0x01…0x20) with the ephemeral scalar 0x60…0x7f, HKDF-SHA-256
   * (salt = ephemeral point, info "whistle/v2/wrap/incident-passphrase"), AES-256-GCM with IV 0xa0…0xab and
   * "incident-passphrase\n<incident public key>\n<person public key>" as associated data.
   */
  const PERSON_PKCS8 =
    'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyChRANCAARRXD1uueOWuQTT_sp_VP3NDMHpl783XcpRWtCmw7QDX0U2vjpQ8xj7-aVHWQKiIVAr7w1X4IxTsswKVvF9n5NU';
  const STORED = {
    credential: {
      public_key: COMPANY_PUBLIC_KEY,
      aes_encrypted_private_key:
        'v1.Orrd5YXTrbtjo7jQOnj1RHG_af3S6VA3sYGZPvRS8KssSSPhS90s3wsttMnkWze6TpYmUuFdcElpsRVKoDNjhAPeqBUc52N5w8A_QgvhiJ3gryT8hsOGbJ2_iu-PO2LM1YfoX94-MBIwaWob79v-hFeNK5q-CMZdn205zni1KrNoRfHhCw10Vq6DbdI9DKcncLVvPKHfhxoeNg',
    },
    aes_salt: SALT,
    aes_iv: toBase64Url(IV),
  };
  const GRANT =
    'v2.BL-X0O4YZqrG-Agm663ELz2B4ba48pj10-vnVCt8tIOn3o8U3d6aoudlsuYOzmDPobCVaDqPb2Kvi6zuf036GOo.oKGio6Slpqeoqaqr.oGtYP0qND0aCIN2kSFc-DzGLPF15OAjNMEyNDWlbaEXNCYFOvM2tGjqDDdphl-T2';

  it('when a grant made by the other route is opened with the person key, then it opens the incident; presented for another case, it does not', async () => {
    const person = {
      publicKeys: PERSON,
      decryptionKey: await importPrivateKeyPkcs8(fromBase64Url(PERSON_PKCS8)),
    } as PersonKeys;
    const opened = await openIncidentWithGrant({ ...STORED, grant: GRANT, person });
    expect(opened.publicKey).toBe(COMPANY_PUBLIC_KEY);
    const otherCase = await createIncidentCredentials(COMPANY_PUBLIC_KEY);
    await expect(openIncidentWithGrant({ ...otherCase.payload, grant: GRANT, person })).rejects.toThrow(
      DecryptionError,
    );
  });
});

describe('known answers of the case team secret and its notes (v3)', () => {
  /*
   * Made with node:crypto's hkdfSync: the team secret is the bytes 0x40…0x5f and the case is COMPANY_PUBLIC_KEY's;
   * no salt; info "whistle/v2/team-secret/incident-passphrase\n<incident public key>" gives the passphrase,
   * "whistle/v2/team-secret/notes-key\n<incident public key>" the notes key. The note: AES-256-GCM under the notes
   * key, IV 0xa0…0xab, the JSON array ["v2", <incident public key>, "note"] as associated data.
   */
  const TEAM_SECRET = bytesFrom(0x40, 32);
  const NOTES_KEY = '7c8a9b13dfc3fd8a457a9ede4e41f21bdde232a135fdc332e851be9721edc3f6';
  const NOTE = 'v3.oKGio6Slpqeoqaqr.09TCFQ-S7e5V1lgbfgm-mnTRcsMRwO1qMj5INdKTpqp2g3Vn';

  it('when a team secret is derived, then the passphrase and the notes key are HKDF(T, info ‖ case), and a note sealed by the other route reads', async () => {
    const passphrase = await passphraseFromTeamSecret(TEAM_SECRET, COMPANY_PUBLIC_KEY);
    expect(hex(passphrase)).toBe('23c1a8655c0bc6803b17cc22f0c77fbf100f0cde8aca82a8e6a671cf5575943c');
    const notesKey = await notesKeyFromTeamSecret(TEAM_SECRET, COMPANY_PUBLIC_KEY);
    expect(await sealsLike(notesKey, NOTES_KEY)).toBe('09TCFQ-S7e5V1lgbfgm-mnTRcsPiti7yARnnsdz1CqLNrqFJ');
    const privateKey = await importPrivateKeyPkcs8(fromBase64Url(COMPANY_PKCS8));
    const handle = { publicKey: COMPANY_PUBLIC_KEY, privateKey, notesKey };
    expect(await decryptNote(handle, NOTE)).toBe('whistle known answer');
    await expect(decryptNote(handle, NOTE, 'motivation')).rejects.toThrow(DecryptionError);
  });
});
