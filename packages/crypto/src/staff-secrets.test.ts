import { hashRaw } from '@node-rs/argon2';
import { fromBase64Url, toBase64Url } from './encoding';
import { CryptoFormatError } from './errors';
import { PARAMS } from './params';
import {
  CURRENT_KDF,
  deriveStaffSecrets,
  isAuthSecret,
  newKdfSalt,
  unlockKeyFromPrf,
  type KdfName,
} from './staff-secrets';
import { aesDecrypt, aesEncrypt, deriveBytes, importAesKey } from './webcrypto';

const { kdfs, info } = PARAMS.v2;
/** 16 bytes 0x00…0x0f */
const SALT = toBase64Url(Uint8Array.from({ length: 16 }, (_, i) => i));
const PASSWORD = 'correct horse battery staple';

/** The master key by another Argon2id implementation (the server's native one), for a cross-check. */
const nativeMaster = async (password: string, salt: string, argon2id: (typeof kdfs)[KdfName]) =>
  new Uint8Array(
    await hashRaw(Buffer.from(password.normalize('NFKC')), {
      salt: Buffer.from(fromBase64Url(salt)),
      algorithm: 2,
      memoryCost: argon2id.memoryKiB,
      timeCost: argon2id.iterations,
      parallelism: argon2id.parallelism,
      outputLen: argon2id.hashBytes,
    }),
  );

describe('staff secrets: Argon2id (WebAssembly) → HKDF → authentication secret and unlock key', () => {
  it.each([
    ['argon2id-v1', 'v2.8PKjl66t7KzRmE_BS-xAEUaKdL9DAoFmXxcSsFi9P9A'],
    ['argon2id-v2', 'v2.Uxm2WIVAW1o7MCZhbfFq7kBvmP-Dm-2UK8-LIaY4mj0'],
  ] as const)(
    'when derived with %s, then the authentication secret equals the known answer for this password and salt',
    async (kdf, known) => {
      const { authSecret } = await deriveStaffSecrets(PASSWORD, SALT, kdf);
      // Pinned: changing a parameter of the derivation changes every account's secret (a new `kdf` name instead).
      expect(authSecret).toBe(known);
      expect(isAuthSecret(authSecret)).toBe(true);
    },
  );

  it('when v1 and v2 derive the same password and salt, then they give different secrets, and new salts are v2', async () => {
    const [v1, v2] = await Promise.all([
      deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v1'),
      deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2'),
    ]);
    expect(v2.authSecret).not.toBe(v1.authSecret);
    expect(CURRENT_KDF).toBe('argon2id-v2');
    expect((await deriveStaffSecrets(PASSWORD, SALT)).authSecret).toBe(v2.authSecret);
  });

  it.each(['argon2id-v1', 'argon2id-v2'] as const)(
    'when %s is compared with the native Argon2id and HKDF, then both keys are those of the documented derivation',
    async (kdf) => {
      const master = (await nativeMaster(PASSWORD, SALT, kdfs[kdf])) as Uint8Array<ArrayBuffer>;
      const auth = await deriveBytes(master, new Uint8Array(0), info.staffAuthSecret, 32);
      const unlockRaw = await deriveBytes(master, new Uint8Array(0), info.staffUnlockKey, 32);
      const { authSecret, unlockKey } = await deriveStaffSecrets(PASSWORD, SALT, kdf);
      expect(authSecret).toBe(`v2.${toBase64Url(auth)}`);
      // The unlock key is not extractable: what it seals must open with the independently derived bytes.
      const iv = new Uint8Array(12);
      const sealed = await aesEncrypt(unlockKey, iv, Uint8Array.of(7, 7, 7));
      const reference = await importAesKey(unlockRaw, ['decrypt']);
      expect(Array.from(await aesDecrypt(reference, iv, sealed))).toEqual([7, 7, 7]);
      expect(unlockKey.extractable).toBe(false);
    },
  );

  it('when the unlock key is compared with the authentication secret, then knowing one gives nothing of the other', async () => {
    const { authSecret, unlockKey } = await deriveStaffSecrets(PASSWORD, SALT);
    const iv = new Uint8Array(12);
    const sealed = await aesEncrypt(unlockKey, iv, Uint8Array.of(1));
    const authAsKey = await importAesKey(fromBase64Url(authSecret.slice(3)), ['decrypt']);
    await expect(aesDecrypt(authAsKey, iv, sealed)).rejects.toThrow();
  });

  it('when the password is typed in another Unicode form, then the keys are the same (NFKC)', async () => {
    const composed = await deriveStaffSecrets('caf\u00e9 cr\u00e8me', SALT);
    const decomposed = await deriveStaffSecrets('cafe\u0301 cre\u0300me', SALT);
    expect(decomposed.authSecret).toBe(composed.authSecret);
  });

  it('when the salt or the password differs, then the secret differs', async () => {
    const base = await deriveStaffSecrets(PASSWORD, SALT);
    expect((await deriveStaffSecrets(PASSWORD, newKdfSalt())).authSecret).not.toBe(base.authSecret);
    expect((await deriveStaffSecrets(`${PASSWORD}!`, SALT)).authSecret).not.toBe(base.authSecret);
  });

  it('when the salt is malformed, the password empty or the kdf unknown, then it refuses with a format error', async () => {
    await expect(deriveStaffSecrets(PASSWORD, 'short')).rejects.toThrow(CryptoFormatError);
    await expect(deriveStaffSecrets('', SALT)).rejects.toThrow(CryptoFormatError);
    await expect(deriveStaffSecrets(PASSWORD, SALT, 'pbkdf2-v1')).rejects.toThrow(CryptoFormatError);
  });

  it('when a typed password looks nothing like a secret, then isAuthSecret tells them apart', () => {
    expect(isAuthSecret(PASSWORD)).toBe(false);
    expect(isAuthSecret('v2.short')).toBe(false);
    expect(isAuthSecret(`v2.${'A'.repeat(43)}`)).toBe(true);
  });

  it('when a passkey PRF output is given, then it yields an unlock key, and a short one is refused', async () => {
    const prf = new Uint8Array(32).fill(9);
    const key = await unlockKeyFromPrf(prf);
    const iv = new Uint8Array(12);
    const sealed = await aesEncrypt(key, iv, Uint8Array.of(5));
    expect(Array.from(await aesDecrypt(await unlockKeyFromPrf(prf), iv, sealed))).toEqual([5]);
    await expect(aesDecrypt(await unlockKeyFromPrf(new Uint8Array(32)), iv, sealed)).rejects.toThrow();
    expect(() => unlockKeyFromPrf(new Uint8Array(16))).toThrow(CryptoFormatError);
  });
});
