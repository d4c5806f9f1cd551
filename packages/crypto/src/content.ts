import { asBytes, concatBytes, utf8Decode, utf8Encode, type Bytes } from './encoding';
import { CryptoFormatError, DecryptionError } from './errors';
import { PARAMS } from './params';
import type { IncidentHandle } from './incident';
import { unwrapWithPrivateKey, wrapToPublicKey } from './wrap';
import { aesDecrypt, aesEncrypt, importAesKey, randomBytes } from './webcrypto';

export interface EncryptedField {
  name: string;
  value: string;
}

/** A report field, message text or file name, wrapped to the incident public key (ECIES). */
export async function encryptField(incidentPublicKey: string, plaintext: string): Promise<string> {
  return wrapToPublicKey(incidentPublicKey, utf8Encode(plaintext), 'content');
}

export async function decryptField(handle: IncidentHandle, ciphertext: string): Promise<string> {
  const bytes = await unwrapWithPrivateKey(handle.privateKey, ciphertext, 'content');
  try {
    return utf8Decode(bytes);
  } catch {
    throw new DecryptionError('Decrypted field is not UTF-8 text');
  }
}

/** `{ description: '…' }` → `[{ name: 'description', value: 'v1.…' }]`, in key order. Names stay clear. */
export async function encryptFields(
  incidentPublicKey: string,
  fields: Record<string, string>,
): Promise<EncryptedField[]> {
  return Promise.all(
    Object.entries(fields).map(async ([name, value]) => ({
      name,
      value: await encryptField(incidentPublicKey, value),
    })),
  );
}

export async function decryptFields(
  handle: IncidentHandle,
  fields: readonly EncryptedField[],
): Promise<EncryptedField[]> {
  return Promise.all(fields.map(async ({ name, value }) => ({ name, value: await decryptField(handle, value) })));
}

export interface EncryptedFile {
  /** Byte 0: format version, 12 bytes IV, then AES-256-GCM ciphertext and tag. */
  ciphertext: Bytes;
  /** The random file key wrapped to the incident public key. */
  encrypted_key: string;
  encrypted_file_name: string;
}

const FILE_HEADER_BYTES = 1 + PARAMS.aes.ivBytes;

/**
 * One AES-GCM call over the whole file (WebCrypto runs it natively: about 165 ms for 25 MB in
 * Chromium); chunking in JavaScript would only be slower. The version byte is the associated data.
 */
export async function encryptFile(
  incidentPublicKey: string,
  content: Uint8Array | ArrayBuffer,
  meta: { fileName: string },
): Promise<EncryptedFile> {
  const fileKey = randomBytes(PARAMS.secretBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const version = Uint8Array.of(PARAMS.fileFormatVersion);
  const key = await importAesKey(fileKey, ['encrypt']);
  const [sealed, encryptedKey, encryptedFileName] = await Promise.all([
    aesEncrypt(key, iv, asBytes(content), version),
    wrapToPublicKey(incidentPublicKey, fileKey, 'file-key'),
    encryptField(incidentPublicKey, meta.fileName),
  ]);
  fileKey.fill(0);
  return {
    ciphertext: concatBytes(version, iv, sealed),
    encrypted_key: encryptedKey,
    encrypted_file_name: encryptedFileName,
  };
}

/** Content and name of a file; decryptField alone reads a name for a file list. */
export async function decryptFile(
  handle: IncidentHandle,
  file: { ciphertext: Uint8Array | ArrayBuffer; encrypted_key: string; encrypted_file_name: string },
): Promise<{ content: Bytes; fileName: string }> {
  const data = asBytes(file.ciphertext);
  if (data.length < FILE_HEADER_BYTES + PARAMS.aes.tagBytes)
    throw new CryptoFormatError('Malformed encrypted file: too short');
  if (data[0] !== PARAMS.fileFormatVersion)
    throw new CryptoFormatError(`Unsupported encrypted file version ${data[0]}`);
  const fileKey = await unwrapWithPrivateKey(handle.privateKey, file.encrypted_key, 'file-key');
  if (fileKey.length !== PARAMS.secretBytes) throw new DecryptionError();
  const key = await importAesKey(fileKey, ['decrypt']);
  fileKey.fill(0);
  const [content, fileName] = await Promise.all([
    aesDecrypt(key, data.subarray(1, FILE_HEADER_BYTES), data.subarray(FILE_HEADER_BYTES), data.subarray(0, 1)),
    decryptField(handle, file.encrypted_file_name),
  ]);
  return { content, fileName };
}
