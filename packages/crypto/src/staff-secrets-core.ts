import type { argon2id } from 'hash-wasm';
import { fromBase64Url, toBase64Url, utf8Encode, type Bytes } from './encoding';
import { CryptoFormatError } from './errors';
import { PARAMS } from './params';
import { deriveAesKey, deriveBytes } from './webcrypto';

// No hash-wasm at run time: the shell's worker bundles this module with hash-wasm's Argon2-only build and passes
// its argon2id in (a worker cannot load a split chunk through the federation runtime), the package its ES build.

/** Argon2id as hash-wasm computes it: its ES build (page fallback, server, tests) or its Argon2-only UMD build. */
export type StaffArgon2id = typeof argon2id;

const { kdfs, info } = PARAMS.v2;

/** A key derivation name of PARAMS.v2.kdfs: what a salt answer, a stored method or the contracts name. */
export type KdfName = keyof typeof kdfs;
/** The derivation new salts are made for. */
export const CURRENT_KDF = PARAMS.v2.kdf;

const isKdfName = (name: string): name is KdfName => Object.hasOwn(kdfs, name);

/** What a password (or an SSO user's unlock passphrase) gives the browser. */
export interface StaffSecrets {
  /** Sent as the spec's `password` field: the server hashes it again and never sees the password. */
  authSecret: string;
  /** Opens the person's private keys; never leaves the browser (non-extractable). */
  unlockKey: CryptoKey;
}

function parseSalt(salt: string, saltBytes: number): Bytes {
  let bytes: Bytes;
  try {
    bytes = fromBase64Url(salt);
  } catch {
    throw new CryptoFormatError('Malformed salt');
  }
  if (bytes.length !== saltBytes) throw new CryptoFormatError('Malformed salt');
  return bytes;
}

/**
 * Argon2id(password, salt) → master key; HKDF splits it in two keys that tell nothing of each other:
 * the authentication secret the server verifies, and the unlock key it must never be able to derive.
 * The password is NFKC-normalised, so the same password typed on two keyboards gives the same keys. `kdf` is the
 * name the salt was made for (a stored salt's own; the current one for a salt just made by `newKdfSalt`).
 */
export async function deriveStaffSecretsWith(
  argon2: StaffArgon2id,
  password: string,
  salt: string,
  kdf: string = CURRENT_KDF,
): Promise<StaffSecrets> {
  if (!isKdfName(kdf)) throw new CryptoFormatError(`Unsupported key derivation ${kdf}`);
  if (!password) throw new CryptoFormatError('Empty password');
  const argon = kdfs[kdf];
  const master = await argon2({
    password: utf8Encode(password.normalize('NFKC')),
    salt: parseSalt(salt, argon.saltBytes),
    parallelism: argon.parallelism,
    iterations: argon.iterations,
    memorySize: argon.memoryKiB,
    hashLength: argon.hashBytes,
    outputType: 'binary',
  });
  const masterKey = new Uint8Array(master) as Bytes;
  try {
    const [auth, unlockKey] = await Promise.all([
      deriveBytes(masterKey, new Uint8Array(0), info.staffAuthSecret, 32),
      deriveAesKey(masterKey, new Uint8Array(0), info.staffUnlockKey, ['encrypt', 'decrypt']),
    ]);
    return { authSecret: `${PARAMS.v2.version}.${toBase64Url(auth)}`, unlockKey };
  } finally {
    masterKey.fill(0);
  }
}
