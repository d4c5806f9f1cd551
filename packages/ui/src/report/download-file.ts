import { downloadIncidentFile, type ApiClient } from '@whistle/api-client';
import { decryptFile, type IncidentHandle } from '@whistle/crypto';

/**
 * Downloads a file of the incident, decrypts it in the browser and hands it to the browser's download,
 * under its decrypted name. `api` carries the token that opens the incident's files (the discloser's
 * session, or a staff member's file token).
 */
export async function saveDecryptedFile(api: ApiClient, handle: IncidentHandle, fileUuid: string): Promise<void> {
  const encrypted = await downloadIncidentFile(api, fileUuid);
  const { content, fileName } = await decryptFile(handle, encrypted);
  const url = URL.createObjectURL(new Blob([content as BlobPart]));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download: the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
