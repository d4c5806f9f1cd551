import type { ObjectStore } from '@whistle/object-store';
import type { Queryable } from '@whistle/service-kit';
import { fileRepository } from '../data-access/file.repository';

/**
 * incident.deleted (retention): the case's encrypted files leave the object store, then their rows (with the
 * wrapped file keys and encrypted names) leave the database, in the consumer's transaction. Deleting an object
 * that is already gone is harmless, so a redelivery after a partial run (some objects deleted, the transaction
 * rolled back) simply finishes the job; the mark refuses later uploads with a still-valid session token.
 */
export async function deleteIncidentFiles(
  deps: { objects: ObjectStore },
  tx: Queryable,
  companyId: string,
  incidentId: string,
): Promise<void> {
  await fileRepository.lockIncident(tx, incidentId);
  await fileRepository.markIncidentDeleted(tx, companyId, incidentId);
  for (const key of await fileRepository.objectKeysOf(tx, companyId, incidentId)) await deps.objects.delete(key);
  await fileRepository.deleteOfIncident(tx, companyId, incidentId);
}
