import { toBase64Url } from './encoding';
import { sha256 } from './webcrypto';

/** What a staff file's signature covers besides the case: its encrypted name and key, and its ciphertext's digest. */
export interface SignedFileParts {
  encrypted_file_name: string;
  encrypted_key: string;
  /** SHA-256 of the exact ciphertext bytes uploaded, base64url: fileContentDigest. */
  content_digest: string;
}

/** SHA-256 of a file's ciphertext, base64url without padding: what the file service computes as the bytes arrive. */
export async function fileContentDigest(ciphertext: Uint8Array): Promise<string> {
  return toBase64Url(await sha256(new Uint8Array(ciphertext)));
}

/**
 * The ciphertexts a staff file's signature (`signStaffContent`, kind `'file'`) is over, in one order for the signer
 * and the verifier: a signature moved to another name, key or content no longer verifies.
 */
export const staffFileCiphertexts = (file: SignedFileParts): string[] => [
  file.encrypted_file_name,
  file.encrypted_key,
  file.content_digest,
];
