import type { Queryable } from '@whistle/service-kit';
import { fileRepository } from '../data-access/file.repository';

/**
 * incident.message.created: the message is one of its case's, so an upload may name it. Only the ids are
 * kept; a redelivery changes nothing, and a message of a case already deleted is not kept.
 */
export function rememberIncidentMessage(
  tx: Queryable,
  message: { id: string; companyId: string; incidentId: string },
): Promise<void> {
  return fileRepository.rememberMessage(tx, message);
}
