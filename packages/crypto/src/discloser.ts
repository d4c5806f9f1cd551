import { constantTimeEqual } from './compare';
import { toBase64Url, utf8Encode, type Bytes } from './encoding';
import { CryptoFormatError, DecryptionError } from './errors';
import { encodeVersioned, parseVersioned, versionOf } from './format';
import { PARAMS } from './params';
import { decodeTeamKeys, encodeTeamKeys, type TeamKey } from './team-keys';
import { aesDecrypt, aesEncrypt, deriveAesKey, deriveBytes, randomBytes, sha256 } from './webcrypto';

const { alphabet, length, groupSize } = PARAMS.discloserPassphrase;
/** Crockford's reading of look-alike characters, so a hand-copied code still works. */
const LOOK_ALIKES: Record<string, string> = { i: '1', l: '1', o: '0' };

/**
 * A fresh discloser passphrase, grouped for reading (`abcd-efgh-…`, 7 groups of 4). 256 is a
 * multiple of 32, so `byte & 31` picks every symbol with equal probability.
 */
export function generateDiscloserPassphrase(): string {
  const symbols = Array.from(randomBytes(length), (byte) => alphabet[byte & 31]).join('');
  return group(symbols);
}

/**
 * The canonical grouped form of a typed passphrase: case, spaces, dashes and i/l/o look-alikes do
 * not matter. Throws CryptoFormatError when it cannot be a discloser passphrase.
 */
export function normalizeDiscloserPassphrase(input: string): string {
  if (typeof input !== 'string') throw new CryptoFormatError('Malformed discloser passphrase');
  const symbols = input
    .toLowerCase()
    .replace(/[\s-]/g, '')
    .replace(/[ilo]/g, (c) => LOOK_ALIKES[c]);
  if (symbols.length !== length || [...symbols].some((c) => !alphabet.includes(c))) {
    throw new CryptoFormatError('Malformed discloser passphrase');
  }
  return group(symbols);
}

function group(symbols: string): string {
  return symbols.match(new RegExp(`.{1,${groupSize}}`, 'g'))!.join('-');
}

/** Key material: the 28 symbols only, so every accepted spelling derives the same keys. */
function passphraseSecret(passphrase: string): Bytes {
  return utf8Encode(normalizeDiscloserPassphrase(passphrase).replace(/-/g, ''));
}

/**
 * The token a discloser presents to read their incident (43 base64url chars). HKDF with its own
 * info and no salt: the discloser must be able to compute it from the secret code alone, before
 * the server has released anything about the incident.
 */
export async function deriveDiscloserAuthToken(discloserPassphrase: string): Promise<string> {
  const token = await deriveBytes(
    passphraseSecret(discloserPassphrase),
    new Uint8Array(0),
    PARAMS.info.discloserAuthToken,
    PARAMS.authTokenBytes,
  );
  return toBase64Url(token);
}

/**
 * A SHA-256 implementation: WebCrypto's by default. A server may pass its platform's synchronous one (Node's
 * `createHash`): WebCrypto's digest is a job on another thread and a promise, ~20× the CPU of the hash itself for
 * a token this short, on every report and retrieval (docs/performance.md, Report creation).
 */
export type Sha256 = (data: Bytes) => Bytes | Promise<Bytes>;

/** Server side: what to store instead of the token, `v1.<SHA-256(token)>`. */
export async function hashDiscloserAuthToken(token: string, digest: Sha256 = sha256): Promise<string> {
  return encodeVersioned([await digest(utf8Encode(token))]);
}

/** Server side: does a presented token match the stored hash (compared in constant time). */
export async function verifyDiscloserAuthToken(
  token: string,
  storedHash: string,
  digest: Sha256 = sha256,
): Promise<boolean> {
  const [expected] = parseVersioned(storedHash, 'auth token hash', [32]);
  return constantTimeEqual(await digest(utf8Encode(token)), expected);
}

/**
 * Incident passphrase under HKDF(discloser passphrase, random salt): `v1.<salt>.<iv>.<ciphertext+tag>`; or, with
 * `boundTo` (the sealed team key list of the report: sealTeamKeysForDiscloser), `v2.` with it as associated data, so
 * a server that drops or swaps the pinned list leaves a passphrase that no longer opens rather than a report that
 * looks older than it is.
 */
export async function sealForDiscloser(discloserPassphrase: string, secret: Bytes, boundTo?: string): Promise<string> {
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const key = await deriveAesKey(passphraseSecret(discloserPassphrase), salt, PARAMS.info.discloserPassphraseKey, [
    'encrypt',
  ]);
  if (boundTo === undefined) return encodeVersioned([salt, iv, await aesEncrypt(key, iv, secret)]);
  const sealed = await aesEncrypt(key, iv, secret, utf8Encode(boundTo));
  return encodeVersioned([salt, iv, sealed], PARAMS.v2.version);
}

/** Opens sealForDiscloser's value: a v2 one only with the very `boundTo` it was sealed with. */
export async function openForDiscloser(
  discloserPassphrase: string,
  sealed: string,
  boundTo?: string | null,
): Promise<Bytes> {
  const bound = versionOf(sealed) === PARAMS.v2.version;
  if (bound && typeof boundTo !== 'string') throw new DecryptionError("The report's pinned team keys are missing");
  const [salt, iv, ciphertext] = parseVersioned(
    sealed,
    'discloser encrypted passphrase',
    [PARAMS.hkdf.saltBytes, PARAMS.aes.ivBytes, { min: PARAMS.aes.tagBytes + 1 }],
    bound ? PARAMS.v2.version : PARAMS.version,
  );
  const key = await deriveAesKey(passphraseSecret(discloserPassphrase), salt, PARAMS.info.discloserPassphraseKey, [
    'decrypt',
  ]);
  return aesDecrypt(key, iv, ciphertext, bound ? utf8Encode(boundTo!) : undefined);
}

/**
 * The case team's signing keys as the report form saw them, sealed for the discloser alone (HKDF of their passphrase
 * with its own info): `v2.<salt>.<iv>.<ciphertext+tag>`. The server can neither read nor forge it; staff never need
 * it. The discloser's page checks staff signatures against it (docs/security.md, "Signed staff messages").
 */
export async function sealTeamKeysForDiscloser(discloserPassphrase: string, keys: readonly TeamKey[]): Promise<string> {
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const key = await deriveAesKey(passphraseSecret(discloserPassphrase), salt, PARAMS.v2.info.discloserTeamKeys, [
    'encrypt',
  ]);
  return encodeVersioned([salt, iv, await aesEncrypt(key, iv, encodeTeamKeys(keys))], PARAMS.v2.version);
}

export async function openTeamKeysForDiscloser(discloserPassphrase: string, sealed: string): Promise<TeamKey[]> {
  const [salt, iv, ciphertext] = parseVersioned(
    sealed,
    'discloser team keys',
    [PARAMS.hkdf.saltBytes, PARAMS.aes.ivBytes, { min: PARAMS.aes.tagBytes + 1 }],
    PARAMS.v2.version,
  );
  const key = await deriveAesKey(passphraseSecret(discloserPassphrase), salt, PARAMS.v2.info.discloserTeamKeys, [
    'decrypt',
  ]);
  return decodeTeamKeys(await aesDecrypt(key, iv, ciphertext));
}
