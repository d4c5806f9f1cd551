import type { EventPayload, IncidentFileSummary } from '@whistle/contracts';
import type { Database, Queryable } from '@whistle/service-kit';
import { fileReadModelRepository } from '../../data-access/file-read-model.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import type { IncidentActor } from '../access/incident-actor';

/**
 * Files are the file service's; the incident service lists them (GET /api/incident/{uuid}/file is
 * routed here) from what `incident.file.created` announced: ids, size, mime type, time. The encrypted
 * name and key come with the file itself from the file service. Replays are harmless.
 */
export async function recordAnnouncedFile(
  tx: Queryable,
  file: EventPayload<'incident.file.created'> & { companyId: string; createdAt: string },
): Promise<void> {
  await fileReadModelRepository.upsert(tx, {
    id: file.incident_file_id,
    incidentId: file.incident_id,
    companyId: file.companyId,
    incidentMessageId: file.incident_message_id,
    fileSize: file.file_size,
    mimeType: file.mime_type,
    createdAt: file.createdAt,
  });
  await incidentRepository.touch(tx, file.companyId, file.incident_id, file.createdAt);
}

export async function listFiles(db: Database, actor: IncidentActor): Promise<IncidentFileSummary[]> {
  const rows = await fileReadModelRepository.ofIncident(db, actor.companyId, actor.incidentId);
  return rows.map((row) => ({
    uuid: row.id,
    incident_uuid: row.incident_id,
    incident_message_uuid: row.incident_message_id,
    file_size: Number(row.file_size),
    mime_type: row.mime_type,
    created: row.created_at.toISOString(),
  }));
}
