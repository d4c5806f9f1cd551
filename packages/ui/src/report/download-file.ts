import { downloadIncidentFile, type ApiClient } from '@whistle/api-client';
import { decryptFile, fileContentDigest, type IncidentHandle, type SignedFileParts } from '@whistle/crypto';

/** A file of the incident decrypted in memory: never written to disk unless the person downloads it. */
export interface DecryptedFile {
  blob: Blob;
  fileName: string;
}

/** A downloaded file is not the one its signature covers: its bytes, name or key were swapped since. */
export class UnverifiedFileError extends Error {
  constructor() {
    super('The downloaded file is not the one the case team signed');
    this.name = 'UnverifiedFileError';
  }
}

/** Whether the download is exactly what was signed: the same name and key, and ciphertext of the signed digest. */
async function isSigned(encrypted: Awaited<ReturnType<typeof downloadIncidentFile>>, signed: SignedFileParts) {
  return (
    encrypted.encrypted_file_name === signed.encrypted_file_name &&
    encrypted.encrypted_key === signed.encrypted_key &&
    (await fileContentDigest(encrypted.ciphertext)) === signed.content_digest
  );
}

/**
 * Downloads a file of the incident and decrypts it in the browser. `api` carries the token that opens the
 * incident's files (the discloser's session, or a staff member's file token). With `signed` (a staff file whose
 * signature the discloser's page checked), a download that is not exactly that file is refused before decryption.
 */
export async function decryptIncidentFile(
  api: ApiClient,
  handle: IncidentHandle,
  fileUuid: string,
  signed?: SignedFileParts,
): Promise<DecryptedFile> {
  const encrypted = await downloadIncidentFile(api, fileUuid);
  if (signed && !(await isSigned(encrypted, signed))) throw new UnverifiedFileError();
  const { content, fileName } = await decryptFile(handle, encrypted);
  return { blob: new Blob([content as BlobPart]), fileName };
}

/** Hands a decrypted file to the browser's download, under its decrypted name. */
export function saveBlob({ blob, fileName }: DecryptedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download: the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Downloads a file of the incident, decrypts it in the browser and hands it to the browser's download. */
export async function saveDecryptedFile(
  api: ApiClient,
  handle: IncidentHandle,
  fileUuid: string,
  signed?: SignedFileParts,
): Promise<void> {
  saveBlob(await decryptIncidentFile(api, handle, fileUuid, signed));
}
