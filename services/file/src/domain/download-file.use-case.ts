import type { Readable } from 'node:stream';
import { encryptedFileBytes, type IncidentFile } from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import { NotFoundError, type Database, type UnitOfWork } from '@whistle/service-kit';
import type { IncidentSessionPrincipal } from '@whistle/tokens';
import { fileRepository } from '../data-access/file.repository';
import { eventActorOf, toIncidentFile } from './incident-file';

/** A file of the caller's incident, or 404 (also for a file of another incident: nothing is confirmed). */
export async function findFile(db: Database, session: IncidentSessionPrincipal, fileId: string): Promise<IncidentFile> {
  const row = await fileRepository.find(db, { companyId: session.companyId, incidentId: session.incidentId }, fileId);
  if (!row) throw new NotFoundError('File not found');
  return toIncidentFile(row);
}

/**
 * The first byte of a stream (the file format's version), put back so the stream is read whole after it;
 * undefined for an empty stream.
 */
function peekFirstByte(content: Readable): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const settle = (value: number | undefined, error?: unknown) => {
      content.off('readable', onReadable).off('end', onEnd).off('error', onError);
      if (error) reject(error);
      else resolve(value);
    };
    const onReadable = () => {
      const chunk = content.read() as Buffer | null;
      if (chunk === null) return;
      content.unshift(chunk);
      settle(chunk[0]);
    };
    const onEnd = () => settle(undefined);
    const onError = (error: unknown) => settle(undefined, error);
    content.on('readable', onReadable).once('end', onEnd).once('error', onError);
  });
}

/**
 * The file's metadata and its ciphertext as a stream from the object store. Every download is on the
 * record (`incident.file.downloaded`, with who downloaded it), written once the store has the object
 * open and before the first byte leaves.
 */
export async function openFile(
  deps: { db: Database; objects: ObjectStore; unitOfWork: UnitOfWork },
  session: IncidentSessionPrincipal,
  fileId: string,
): Promise<{ file: IncidentFile; ciphertextBytes: number; content: Readable }> {
  const row = await fileRepository.find(
    deps.db,
    { companyId: session.companyId, incidentId: session.incidentId },
    fileId,
  );
  if (!row) throw new NotFoundError('File not found');
  const file = toIncidentFile(row);
  // Opened first: a download the store cannot serve (503, nothing sent) is not on the record as one.
  const content = await deps.objects.get(row.object_key);
  let ciphertextBytes: number;
  try {
    // Files stored before padding (format 1) and after (2) differ in size; the first byte says which.
    ciphertextBytes = encryptedFileBytes(file.file_size, (await peekFirstByte(content)) === 1 ? 1 : 2);
    await deps.unitOfWork((tx) =>
      tx.addEvent({
        name: 'incident.file.downloaded',
        company_id: session.companyId,
        payload: { incident_id: session.incidentId, incident_file_id: file.uuid },
        actor: eventActorOf(session),
      }),
    );
  } catch (error) {
    content.destroy();
    throw error;
  }
  return { file, ciphertextBytes, content };
}
