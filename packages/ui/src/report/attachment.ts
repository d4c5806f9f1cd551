import { ApiError, uploadIncidentFile, type ApiClient } from '@whistle/api-client';
import { encryptFile, fileContentDigest, type IncidentHandle, type SignedFileParts } from '@whistle/crypto';
import type { MetadataWarning, RemovedMetadata } from './metadata';

/**
 * Spec §9: 25,000,000 bytes per file, the contracts' MAX_FILE_SIZE (a test keeps them equal).
 * Importing the value would bring the contracts' zod schemas into the browser for one number.
 */
export const MAX_FILE_SIZE = 25_000_000;

export const isTooLarge = (file: { size: number }) => file.size > MAX_FILE_SIZE;

/** A file read into memory, ready to be encrypted and sent with a report or a reply. */
export interface Attachment {
  id: string;
  name: string;
  size: number;
  type: string;
  bytes: Uint8Array;
}

/** A chosen file: being read (no bytes yet), read, or being uploaded. */
export interface PendingFile extends Partial<Pick<Attachment, 'bytes'>> {
  id: string;
  name: string;
  size: number;
  type: string;
  /** Reading (before sending) or uploading progress, 0 to 1. */
  progress: number;
  /** The server could not take the upload now (503, 408): it is sent again in this many seconds. */
  retryInSeconds?: number;
  /** What was stripped from the file before encryption (the discloser's forms). */
  removed?: RemovedMetadata[];
  /** What the file may still reveal (PDF, Office, an image that could not be cleaned). */
  warning?: MetadataWarning;
}

export const isLoaded = (file: PendingFile): file is PendingFile & Attachment => file.bytes !== undefined;

/** A staff file's signature as the upload carries it, but for the digest (docs/security.md, "Signed staff messages"). */
export interface UploadSignature {
  signature: string;
  signature_nonce: string;
  signer_key_id: string;
}

/** Signs a staff file's encrypted name, key and digest for the discloser's page; undefined: sent unsigned. */
export type FileSigner = (file: SignedFileParts) => Promise<UploadSignature | undefined>;

/** The digest and signature of a file `sign` signs; nothing for one it does not (the discloser's, or keys locked). */
async function signatureFields(
  encrypted: { ciphertext: Uint8Array; encrypted_file_name: string; encrypted_key: string },
  sign: FileSigner | undefined,
) {
  if (!sign) return {};
  const parts = {
    encrypted_file_name: encrypted.encrypted_file_name,
    encrypted_key: encrypted.encrypted_key,
    content_digest: await fileContentDigest(encrypted.ciphertext),
  };
  const signature = await sign(parts);
  return signature ? { ...signature, content_digest: parts.content_digest } : {};
}

/**
 * Encrypts one file in the browser to the incident key (its key and name bound to the case) and uploads the
 * ciphertext; `api` carries the discloser session token or the case's file token. `sign` (staff) signs it for the
 * discloser's page.
 */
export async function uploadAttachment(
  api: ApiClient,
  handle: Pick<IncidentHandle, 'publicKey'>,
  incidentUuid: string,
  messageUuid: string | null,
  file: Attachment,
  onProgress?: (fraction: number) => void,
  onRetry?: (seconds: number) => void,
  sign?: FileSigner,
) {
  const encrypted = await encryptFile(handle.publicKey, file.bytes, { fileName: file.name });
  const signed = await signatureFields(encrypted, sign);
  return uploadIncidentFile(
    api,
    {
      incident_uuid: incidentUuid,
      incident_message_uuid: messageUuid,
      ciphertext: encrypted.ciphertext,
      file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      file_size: file.size,
      mime_type: file.type || 'application/octet-stream',
      ...signed,
    },
    { onProgress, onRetry: onRetry && ((retry) => onRetry(Math.ceil(retry.delayMs / 1000))) },
  );
}

export type UploadFailureKey = 'files.limitReached' | 'files.tooManyUploads' | 'files.uploadFailed';

/**
 * What to tell about an upload the file service refused (the `common` namespace's key): 409 is a case or
 * message that has all the files it may take, 429 too many files sent in an hour; anything else, a failure.
 */
export function uploadFailureKey(error: unknown): UploadFailureKey {
  if (error instanceof ApiError && error.status === 409) return 'files.limitReached';
  if (error instanceof ApiError && error.status === 429) return 'files.tooManyUploads';
  return 'files.uploadFailed';
}
