import { asBytes, concatBytes, utf8Decode, utf8Encode, type Bytes } from './encoding';
import { CryptoFormatError, DecryptionError } from './errors';
import { PARAMS } from './params';
import type { IncidentHandle } from './incident-key';
import { encodeVersioned, parseVersioned, versionOf } from './format';
import { unwrapBound, unwrapWithPrivateKey, wrapBound } from './wrap';
import { aesDecrypt, aesEncrypt, importAesKey, randomBytes } from './webcrypto';

export interface EncryptedField {
  name: string;
  value: string;
}

/**
 * What a text is, bound into its ciphertext (v2): a report field by name, a message by the side that sent it, a
 * private note, a close or reopen motivation, a file's name. A ciphertext moved to another place, case or kind
 * no longer opens. Object ids are not part of it: the server assigns them after the browser encrypts.
 */
export type ContentBinding =
  | { kind: 'field'; name: string }
  | { kind: 'message'; from: 'discloser' | 'staff' }
  | { kind: 'note' }
  | { kind: 'motivation' }
  | { kind: 'file-name' };

type Bound = ContentBinding | { kind: 'file-key' };

/**
 * The associated data of a v2 value: a JSON array of strings (one encoding per binding, no separator to forge)
 * of the format version, the incident public key (it names the case), the kind and its detail.
 */
function contentContext(incidentPublicKey: string, binding: Bound): string {
  const detail = (() => {
    switch (binding.kind) {
      case 'field':
        if (typeof binding.name !== 'string' || binding.name === '') throw new TypeError('A field needs its name');
        return [binding.name];
      case 'message':
        if (binding.from !== 'discloser' && binding.from !== 'staff') throw new TypeError('Unknown message sender');
        return [binding.from];
      case 'note':
      case 'motivation':
      case 'file-name':
      case 'file-key':
        return [];
      default:
        throw new TypeError('Unknown content kind');
    }
  })();
  return JSON.stringify([PARAMS.v2.version, incidentPublicKey, binding.kind, ...detail]);
}

/** A text of the incident, wrapped to its public key (ECIES) and bound to what it is: `v2.<eph>.<iv>.<ct>`. */
export async function encryptContent(
  incidentPublicKey: string,
  plaintext: string,
  binding: ContentBinding,
): Promise<string> {
  return wrapBound(incidentPublicKey, utf8Encode(plaintext), 'content', contentContext(incidentPublicKey, binding));
}

/**
 * Opens a text: a v2 value with the binding it was made with (another one, or any altered byte, is a
 * DecryptionError); a v1 value (written before binding) with the old unbound wrap, whatever the binding.
 */
export async function decryptContent(
  handle: IncidentHandle,
  ciphertext: string,
  binding: ContentBinding,
): Promise<string> {
  const bytes =
    versionOf(ciphertext) === PARAMS.version
      ? await unwrapWithPrivateKey(handle.privateKey, ciphertext, 'content')
      : await unwrapBound(handle.privateKey, ciphertext, 'content', contentContext(handle.publicKey, binding));
  try {
    return utf8Decode(bytes);
  } catch {
    throw new DecryptionError('Decrypted text is not UTF-8');
  }
}

/** What only the case team writes and reads: a private note, a close or reopen motivation. */
export type TeamOnlyKind = 'note' | 'motivation';

/**
 * A private note (or a motivation) of the case team. With the case's notes key (a case with a team secret):
 * `v3.<iv>.<ct>`, AES-256-GCM bound like v2 content (case, kind), a key the discloser never holds. Without it (a
 * case made before): v2 to the incident key, which the discloser's secret code also opens (docs/security.md).
 */
export async function encryptNote(handle: IncidentHandle, text: string, kind: TeamOnlyKind = 'note'): Promise<string> {
  if (!handle.notesKey) return encryptContent(handle.publicKey, text, { kind });
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const context = utf8Encode(contentContext(handle.publicKey, { kind }));
  const sealed = await aesEncrypt(handle.notesKey, iv, utf8Encode(text), context);
  return encodeVersioned([iv, sealed], PARAMS.teamSecret.noteVersion);
}

/**
 * Opens a note (or a motivation): `v3.` with the notes key — the discloser's handle has none, so it is a
 * DecryptionError. A case with a notes key reads only `v3.`: a text encrypted to its incident public key (which the
 * server knows) is refused, not shown as the team's. A case without one reads v1 and v2 as decryptContent does.
 */
export async function decryptNote(
  handle: IncidentHandle,
  ciphertext: string,
  kind: TeamOnlyKind = 'note',
): Promise<string> {
  if (versionOf(ciphertext) !== PARAMS.teamSecret.noteVersion) {
    if (handle.notesKey) throw new DecryptionError('Not a note of the case team');
    return decryptContent(handle, ciphertext, { kind });
  }
  if (!handle.notesKey) throw new DecryptionError('This handle holds no notes key');
  const [iv, sealed] = parseVersioned(
    ciphertext,
    'note',
    [PARAMS.aes.ivBytes, { min: PARAMS.aes.tagBytes }],
    PARAMS.teamSecret.noteVersion,
  );
  const context = utf8Encode(contentContext(handle.publicKey, { kind }));
  try {
    return utf8Decode(await aesDecrypt(handle.notesKey, iv, sealed, context));
  } catch (error) {
    if (error instanceof DecryptionError) throw error;
    throw new DecryptionError('Decrypted text is not UTF-8');
  }
}

/** `{ description: '…' }` → `[{ name: 'description', value: 'v2.…' }]`, in key order, each bound to its name. */
export function encryptReportFields(
  incidentPublicKey: string,
  fields: Record<string, string>,
): Promise<EncryptedField[]> {
  return Promise.all(
    Object.entries(fields).map(async ([name, value]) => ({
      name,
      value: await encryptContent(incidentPublicKey, value, { kind: 'field', name }),
    })),
  );
}

/** Each field opened under its own name; one that does not open is a DecryptionError (or a CryptoFormatError). */
export function decryptReportFields(
  handle: IncidentHandle,
  fields: readonly EncryptedField[],
): Promise<EncryptedField[]> {
  return Promise.all(
    fields.map(async ({ name, value }) => ({
      name,
      value: await decryptContent(handle, value, { kind: 'field', name }),
    })),
  );
}

export interface EncryptedFile {
  /**
   * Byte 0: format version (2), 12 bytes IV, then AES-256-GCM ciphertext and tag of the padded plaintext:
   * the file's length (4 bytes, big-endian), the file, zeros up to `paddedFileLength`.
   */
  ciphertext: Bytes;
  /** The random file key wrapped to the incident public key, bound to the incident (v2). */
  encrypted_key: string;
  encrypted_file_name: string;
}

const FILE_HEADER_BYTES = 1 + PARAMS.aes.ivBytes;
/** Version 1: the file alone under AES-GCM, no padding (still read). */
const UNPADDED_FILE_VERSION = 1;

/**
 * Padmé (Nikitin et al., "Reducing metadata leakage from encrypted files and communication with PURBs", 2019),
 * the padding GlobaLeaks uses: a length keeps only its top log2(log2(L)) + 1 bits, rounded up. At most 12 %
 * more (≤ 0.7 % at 25 MB), and the sizes a file can take are so few that a known document's size no longer
 * names it among the others of its range. Mirrored in @whistle/contracts (the file service checks sizes).
 */
export function paddedFileLength(length: number): number {
  if (!Number.isSafeInteger(length) || length < 0 || length >= 2 ** 32) throw new RangeError('Invalid file length');
  if (length < 2) return length;
  const exponent = 31 - Math.clz32(length);
  const bitsOfExponent = 32 - Math.clz32(exponent);
  const step = 2 ** (exponent - bitsOfExponent);
  return Math.ceil(length / step) * step;
}

/** Bytes of the ciphertext `encryptFile` makes of a file of `fileSize` bytes. */
export const encryptedFileLength = (fileSize: number) =>
  FILE_HEADER_BYTES + paddedFileLength(PARAMS.fileLengthBytes + fileSize) + PARAMS.aes.tagBytes;

/**
 * One AES-GCM call over the whole file (WebCrypto runs it natively: about 165 ms for 25 MB in
 * Chromium); chunking in JavaScript would only be slower. The version byte is the associated data.
 * The file is padded inside the encryption (its real length with it), so the stored object's size is a Padmé
 * bucket and not the file's.
 */
export async function encryptFile(
  incidentPublicKey: string,
  content: Uint8Array | ArrayBuffer,
  meta: { fileName: string },
): Promise<EncryptedFile> {
  const bytes = asBytes(content);
  const padded = new Uint8Array(paddedFileLength(PARAMS.fileLengthBytes + bytes.length));
  new DataView(padded.buffer).setUint32(0, bytes.length);
  padded.set(bytes, PARAMS.fileLengthBytes);
  const fileKey = randomBytes(PARAMS.secretBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const version = Uint8Array.of(PARAMS.fileFormatVersion);
  const key = await importAesKey(fileKey, ['encrypt']);
  const [sealed, encryptedKey, encryptedFileName] = await Promise.all([
    aesEncrypt(key, iv, padded, version),
    wrapBound(incidentPublicKey, fileKey, 'file-key', contentContext(incidentPublicKey, { kind: 'file-key' })),
    encryptContent(incidentPublicKey, meta.fileName, { kind: 'file-name' }),
  ]);
  fileKey.fill(0);
  padded.fill(0);
  return {
    ciphertext: concatBytes(version, iv, sealed),
    encrypted_key: encryptedKey,
    encrypted_file_name: encryptedFileName,
  };
}

/** The file inside a version 2 plaintext: its length field names how much of it is the file. */
function unpad(plaintext: Bytes): Bytes {
  if (plaintext.length < PARAMS.fileLengthBytes) throw new DecryptionError('Malformed padded file');
  const length = new DataView(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength).getUint32(0);
  if (length > plaintext.length - PARAMS.fileLengthBytes) throw new DecryptionError('Malformed padded file');
  return plaintext.subarray(PARAMS.fileLengthBytes, PARAMS.fileLengthBytes + length);
}

/**
 * Content and name of a file (format 2, or 1 of files stored before padding; its key and name v2, or v1 as
 * written before binding); `decryptContent(…, { kind: 'file-name' })` alone reads a name.
 */
export async function decryptFile(
  handle: IncidentHandle,
  file: { ciphertext: Uint8Array | ArrayBuffer; encrypted_key: string; encrypted_file_name: string },
): Promise<{ content: Bytes; fileName: string }> {
  const data = asBytes(file.ciphertext);
  if (data.length < FILE_HEADER_BYTES + PARAMS.aes.tagBytes)
    throw new CryptoFormatError('Malformed encrypted file: too short');
  const version = data[0];
  if (version !== PARAMS.fileFormatVersion && version !== UNPADDED_FILE_VERSION)
    throw new CryptoFormatError(`Unsupported encrypted file version ${version}`);
  const fileKey =
    versionOf(file.encrypted_key) === PARAMS.version
      ? await unwrapWithPrivateKey(handle.privateKey, file.encrypted_key, 'file-key')
      : await unwrapBound(
          handle.privateKey,
          file.encrypted_key,
          'file-key',
          contentContext(handle.publicKey, { kind: 'file-key' }),
        );
  if (fileKey.length !== PARAMS.secretBytes) throw new DecryptionError();
  const key = await importAesKey(fileKey, ['decrypt']);
  fileKey.fill(0);
  const [plaintext, fileName] = await Promise.all([
    aesDecrypt(key, data.subarray(1, FILE_HEADER_BYTES), data.subarray(FILE_HEADER_BYTES), data.subarray(0, 1)),
    decryptContent(handle, file.encrypted_file_name, { kind: 'file-name' }),
  ]);
  return { content: version === UNPADDED_FILE_VERSION ? plaintext : unpad(plaintext), fileName };
}
