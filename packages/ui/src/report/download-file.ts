import { downloadIncidentFile, type ApiClient } from '@whistle/api-client';
import { decryptFile, type IncidentHandle } from '@whistle/crypto';

/** A file of the incident decrypted in memory: never written to disk unless the person downloads it. */
export interface DecryptedFile {
  blob: Blob;
  fileName: string;
}

/**
 * Downloads a file of the incident and decrypts it in the browser. `api` carries the token that opens the
 * incident's files (the discloser's session, or a staff member's file token).
 */
export async function decryptIncidentFile(
  api: ApiClient,
  handle: IncidentHandle,
  fileUuid: string,
): Promise<DecryptedFile> {
  const encrypted = await downloadIncidentFile(api, fileUuid);
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
export async function saveDecryptedFile(api: ApiClient, handle: IncidentHandle, fileUuid: string): Promise<void> {
  saveBlob(await decryptIncidentFile(api, handle, fileUuid));
}
