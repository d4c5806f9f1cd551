import {
  deriveDiscloserAuthToken,
  generateDiscloserPassphrase,
  openForDiscloser,
  openTeamKeysForDiscloser,
  sealForDiscloser,
  sealTeamKeysForDiscloser,
} from './discloser';
import { toBase64Url, utf8Encode, type Bytes } from './encoding';
import { DecryptionError } from './errors';
import { encodeVersioned, parseFixedBase64Url, parseVersioned, versionOf } from './format';
import { PARAMS } from './params';
import type { PersonKeys } from './person-keys';
import type { TeamKey } from './team-keys';
import { encodePublicKey, unwrapBound, unwrapWithPrivateKey, wrapBound, wrapToPublicKey } from './wrap';
import {
  aesDecrypt,
  aesEncrypt,
  deriveAesKey,
  exportPrivateKeyPkcs8,
  exportPublicKeyRaw,
  generateExportableKeyPair,
  importPrivateKeyPkcs8,
  randomBytes,
} from './webcrypto';

/** An opened incident: encrypt to `publicKey`, decrypt with `privateKey` (non-extractable). */
export interface IncidentHandle {
  readonly publicKey: string;
  readonly privateKey: CryptoKey;
}

export interface IncidentCredential {
  public_key: string;
  aes_encrypted_private_key: string;
}

/** The key-related fields of POST /api/incident/ (spec §3), ready to spread into the body. */
export interface IncidentCreatePayloadKeys {
  credential: IncidentCredential;
  aes_salt: string;
  aes_iv: string;
  company_encrypted_passphrase: string;
  discloser_encrypted_passphrase: string;
  discloser_auth_token: string;
  /**
   * Not in the spec: the case team's signing keys, sealed for the discloser (sealTeamKeysForDiscloser); the
   * discloser's sealed passphrase is bound to it. Absent for a report made without a list.
   */
  discloser_team_keys?: string;
}

export interface IncidentCredentials {
  /** Send to the server. Kept apart from the secrets below so a spread cannot leak them. */
  payload: IncidentCreatePayloadKeys;
  /** The passphrase wrapped to each of `recipients` (per-case grants), by their opaque key id; [] without any. */
  grants: { key_id: string; wrapped_passphrase: string }[];
  /** Shown once, inside the secret code; never sent. */
  discloserPassphrase: string;
  incident: IncidentHandle;
}

/**
 * The discloser's browser, once the company public key is known: a P-256 incident key pair (about
 * a millisecond, no RSA), a random 256-bit incident passphrase sealing its private key, that
 * passphrase wrapped to the company and sealed for the discloser, and the discloser auth token.
 */
export async function createIncidentCredentials(
  companyPublicKey: string,
  recipients: readonly { key_id: string; public_key: string }[] = [],
  /** The team's signing keys to pin for the discloser's page (docs/security.md, "Signed staff messages"). */
  teamKeys?: readonly TeamKey[],
): Promise<IncidentCredentials> {
  const pair = await generateExportableKeyPair();
  const publicKey = encodePublicKey(await exportPublicKeyRaw(pair.publicKey));
  const incidentPassphrase = randomBytes(PARAMS.secretBytes);
  const discloserPassphrase = generateDiscloserPassphrase();
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const pkcs8 = await exportPrivateKeyPkcs8(pair.privateKey);
  const sealedTeamKeys = teamKeys ? await sealTeamKeysForDiscloser(discloserPassphrase, teamKeys) : undefined;

  const [sealedPrivateKey, companyEncrypted, discloserEncrypted, authToken, privateKey] = await Promise.all([
    deriveAesKey(incidentPassphrase, salt, PARAMS.info.incidentPrivateKey, ['encrypt']).then((key) =>
      aesEncrypt(key, iv, pkcs8, utf8Encode(publicKey)),
    ),
    wrapToPublicKey(companyPublicKey, incidentPassphrase, 'incident-passphrase'),
    sealForDiscloser(discloserPassphrase, incidentPassphrase, sealedTeamKeys),
    deriveDiscloserAuthToken(discloserPassphrase),
    importPrivateKeyPkcs8(pkcs8),
  ]);
  pkcs8.fill(0);
  let grants: IncidentCredentials['grants'];
  try {
    grants = await Promise.all(
      recipients.map(async (recipient) => ({
        key_id: recipient.key_id,
        wrapped_passphrase: await wrapPassphraseTo(incidentPassphrase, publicKey, recipient.public_key),
      })),
    );
  } finally {
    incidentPassphrase.fill(0);
  }

  return {
    payload: {
      credential: { public_key: publicKey, aes_encrypted_private_key: encodeVersioned([sealedPrivateKey]) },
      aes_salt: toBase64Url(salt),
      aes_iv: toBase64Url(iv),
      company_encrypted_passphrase: companyEncrypted,
      discloser_encrypted_passphrase: discloserEncrypted,
      discloser_auth_token: authToken,
      ...(sealedTeamKeys ? { discloser_team_keys: sealedTeamKeys } : {}),
    },
    grants,
    discloserPassphrase,
    incident: { publicKey, privateKey },
  };
}

interface StoredIncidentKeys {
  credential: IncidentCredential;
  aes_salt: string;
  aes_iv: string;
}

/**
 * The public key is the associated data of the sealed private key: a server that swaps in a key
 * pair of its own (to read future messages) makes opening fail instead. Leaves the passphrase to the caller.
 */
async function openSealedPrivateKey(incidentPassphrase: Bytes, stored: StoredIncidentKeys): Promise<IncidentHandle> {
  const salt = parseFixedBase64Url(stored.aes_salt, 'aes_salt', PARAMS.hkdf.saltBytes);
  const iv = parseFixedBase64Url(stored.aes_iv, 'aes_iv', PARAMS.aes.ivBytes);
  const { public_key: publicKey, aes_encrypted_private_key: sealed } = stored.credential;
  parseVersioned(publicKey, 'incident public key', [PARAMS.ecdh.publicKeyBytes]);
  const [ciphertext] = parseVersioned(sealed, 'encrypted incident private key', [{ min: PARAMS.aes.tagBytes + 1 }]);
  const key = await deriveAesKey(incidentPassphrase, salt, PARAMS.info.incidentPrivateKey, ['decrypt']);
  const pkcs8 = await aesDecrypt(key, iv, ciphertext, utf8Encode(publicKey));
  try {
    return { publicKey, privateKey: await importPrivateKeyPkcs8(pkcs8) };
  } catch {
    throw new DecryptionError('Decrypted incident private key is not a P-256 key');
  } finally {
    pkcs8.fill(0);
  }
}

async function openWithIncidentPassphrase(
  incidentPassphrase: Bytes,
  stored: StoredIncidentKeys,
): Promise<IncidentHandle> {
  try {
    return await openSealedPrivateKey(incidentPassphrase, stored);
  } finally {
    incidentPassphrase.fill(0);
  }
}

/**
 * The incident passphrase from its company wrapping, with the first of `companyPrivateKeys` that opens it: during a
 * company key rotation a case is wrapped to either version. Any other failure is one DecryptionError.
 */
async function unwrapCompanyPassphrase(
  companyPrivateKeys: readonly CryptoKey[],
  wrapped: string,
): Promise<{ passphrase: Bytes; keyIndex: number }> {
  for (const [keyIndex, key] of companyPrivateKeys.entries()) {
    try {
      return { passphrase: await unwrapWithPrivateKey(key, wrapped, 'incident-passphrase'), keyIndex };
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
    }
  }
  throw new DecryptionError();
}

/**
 * Review page: open the incident with the passphrase from the secret code. A report sealed with a team key list
 * opens only with that very list (`discloser_team_keys`): dropped or swapped, it is a DecryptionError.
 */
export async function openIncidentAsDiscloser(
  input: StoredIncidentKeys & {
    discloser_encrypted_passphrase: string;
    discloser_team_keys?: string | null;
    discloserPassphrase: string;
  },
): Promise<IncidentHandle> {
  const incidentPassphrase = await openForDiscloser(
    input.discloserPassphrase,
    input.discloser_encrypted_passphrase,
    input.discloser_team_keys,
  );
  return openWithIncidentPassphrase(incidentPassphrase, input);
}

/**
 * The team keys pinned in a report at its making, for the discloser's page; null for a report made before pinning
 * (its sealed passphrase is v1 and bound to nothing: docs/security.md says the limit). Call after
 * openIncidentAsDiscloser succeeded, which proved the list is the one the report was sealed with.
 */
export async function openPinnedTeamKeys(input: {
  discloser_encrypted_passphrase: string;
  discloser_team_keys?: string | null;
  discloserPassphrase: string;
}): Promise<TeamKey[] | null> {
  if (versionOf(input.discloser_encrypted_passphrase) !== PARAMS.v2.version || !input.discloser_team_keys) return null;
  return openTeamKeysForDiscloser(input.discloserPassphrase, input.discloser_team_keys);
}

/**
 * Staff browser: open the incident with the unlocked company private key — or, while a rotation re-wraps the cases,
 * with whichever of the current and previous keys (`previousCompanyPrivateKey`) wraps it.
 */
export async function openIncidentAsCompany(
  input: StoredIncidentKeys & {
    companyPrivateKey: CryptoKey;
    previousCompanyPrivateKey?: CryptoKey;
    company_encrypted_passphrase: string;
  },
): Promise<IncidentHandle> {
  const keys = [input.companyPrivateKey, ...(input.previousCompanyPrivateKey ? [input.previousCompanyPrivateKey] : [])];
  const { passphrase } = await unwrapCompanyPassphrase(keys, input.company_encrypted_passphrase);
  return openWithIncidentPassphrase(passphrase, input);
}

/**
 * A company key rotation, in an admin's browser (docs/security.md, "Rotation"): the incident passphrase opened with
 * whichever of `companyPrivateKeys` wraps it, then checked against the incident — it must open the incident's
 * sealed private key, so a value the server made up is refused rather than re-wrapped — and wrapped to
 * `newCompanyPublicKey` (v1 ECIES, as a discloser wraps it). `newCompanyPublicKey` is one the browser made or
 * checked against its own grant, never one taken from the server alone. `keyIndex`: which key opened it.
 */
export async function rewrapIncidentPassphrase(
  input: StoredIncidentKeys & {
    company_encrypted_passphrase: string;
    companyPrivateKeys: readonly CryptoKey[];
    newCompanyPublicKey: string;
  },
): Promise<{ company_encrypted_passphrase: string; keyIndex: number }> {
  const { passphrase, keyIndex } = await unwrapCompanyPassphrase(
    input.companyPrivateKeys,
    input.company_encrypted_passphrase,
  );
  try {
    await openSealedPrivateKey(passphrase, input);
    const rewrapped = await wrapToPublicKey(input.newCompanyPublicKey, passphrase, 'incident-passphrase');
    return { company_encrypted_passphrase: rewrapped, keyIndex };
  } finally {
    passphrase.fill(0);
  }
}

/** A per-case grant's binding: the case (its incident public key, unique to it) and the recipient's key. */
const passphraseGrantContext = (incidentPublicKey: string, recipientPublicKey: string) =>
  `incident-passphrase\n${incidentPublicKey}\n${recipientPublicKey}`;

/** The incident passphrase wrapped to one person (v2, bound to the case and to their key). */
function wrapPassphraseTo(passphrase: Bytes, incidentPublicKey: string, recipientPublicKey: string): Promise<string> {
  return wrapBound(
    recipientPublicKey,
    passphrase,
    'incident-passphrase',
    passphraseGrantContext(incidentPublicKey, recipientPublicKey),
  );
}

/**
 * The passphrase checked against the case (it must open the incident's sealed private key: a value the server made
 * up, or one moved from another case, is refused and wrapped to nobody), then wrapped to each recipient's key in
 * their order; wiped after.
 */
async function wrapCheckedPassphrase(
  passphrase: Bytes,
  input: StoredIncidentKeys & { recipientPublicKeys: readonly string[] },
): Promise<string[]> {
  try {
    await openSealedPrivateKey(passphrase, input);
    return await Promise.all(
      input.recipientPublicKeys.map((key) => wrapPassphraseTo(passphrase, input.credential.public_key, key)),
    );
  } finally {
    passphrase.fill(0);
  }
}

/**
 * Per-case grants, in an assigning admin's browser (docs/security.md, "Per-case grants"): the incident passphrase
 * opened with whichever of `companyPrivateKeys` wraps it, checked against the case (it must open the incident's
 * sealed private key: a value the server made up, or one moved from another case, is refused and wrapped to nobody),
 * then wrapped to each recipient's ECDH public key — keys the caller compared by fingerprint, never ones the server
 * merely names. One wrapping per recipient, in their order.
 */
export async function grantIncidentPassphrase(
  input: StoredIncidentKeys & {
    company_encrypted_passphrase: string;
    companyPrivateKeys: readonly CryptoKey[];
    recipientPublicKeys: readonly string[];
  },
): Promise<string[]> {
  const { passphrase } = await unwrapCompanyPassphrase(input.companyPrivateKeys, input.company_encrypted_passphrase);
  return wrapCheckedPassphrase(passphrase, input);
}

/**
 * Per-case grants made with one's own grant, for a case no company key wraps (its discloser kept an admin out:
 * docs/security.md, "Keeping people out"): the passphrase opened with `person`'s key, checked against the case like
 * grantIncidentPassphrase, and wrapped to each recipient's ECDH public key, in their order.
 */
export async function regrantIncidentPassphrase(
  input: StoredIncidentKeys & { grant: string; person: PersonKeys; recipientPublicKeys: readonly string[] },
): Promise<string[]> {
  const passphrase = await unwrapBound(
    input.person.decryptionKey,
    input.grant,
    'incident-passphrase',
    passphraseGrantContext(input.credential.public_key, input.person.publicKeys.public_key),
  );
  return wrapCheckedPassphrase(passphrase, input);
}

/**
 * A handler's or reviewer's browser: opens the case with their own grant and their ECDH private key. The wrapping
 * must be bound to this case and to their key, and the passphrase inside must open the incident's sealed private
 * key: a grant moved from another case or person, or made up, is a DecryptionError.
 */
export async function openIncidentWithGrant(
  input: StoredIncidentKeys & { grant: string; person: PersonKeys },
): Promise<IncidentHandle> {
  const passphrase = await unwrapBound(
    input.person.decryptionKey,
    input.grant,
    'incident-passphrase',
    passphraseGrantContext(input.credential.public_key, input.person.publicKeys.public_key),
  );
  return openWithIncidentPassphrase(passphrase, input);
}
