import type { Readable } from 'node:stream';
import { FILE_CIPHERTEXT_OVERHEAD, type IncidentFile } from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import { NotFoundError, type Database } from '@whistle/service-kit';
import type { DiscloserPrincipal } from '@whistle/tokens';
import { fileRepository } from '../data-access/file.repository';
import { toIncidentFile } from './incident-file';

/** A file of the caller's incident, or 404 (also for a file of another incident: nothing is confirmed). */
export async function findFile(db: Database, discloser: DiscloserPrincipal, fileId: string): Promise<IncidentFile> {
  const row = await fileRepository.find(
    db,
    { companyId: discloser.companyId, incidentId: discloser.incidentId },
    fileId,
  );
  if (!row) throw new NotFoundError('File not found');
  return toIncidentFile(row);
}

/** The file's metadata and its ciphertext as a stream from the object store. */
export async function openFile(
  deps: { db: Database; objects: ObjectStore },
  discloser: DiscloserPrincipal,
  fileId: string,
): Promise<{ file: IncidentFile; ciphertextBytes: number; content: Readable }> {
  const row = await fileRepository.find(
    deps.db,
    { companyId: discloser.companyId, incidentId: discloser.incidentId },
    fileId,
  );
  if (!row) throw new NotFoundError('File not found');
  const file = toIncidentFile(row);
  return {
    file,
    ciphertextBytes: file.file_size + FILE_CIPHERTEXT_OVERHEAD,
    content: await deps.objects.get(row.object_key),
  };
}
