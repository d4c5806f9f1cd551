import type { EventEnvelope, EventPayload, IncidentFileSummary } from '@whistle/contracts';
import { UnprocessableEventError, type Database, type Queryable } from '@whistle/service-kit';
import { incidentRepository } from '../../data-access/incident.repository';
import type { IncidentActor } from '../../entry-points/http/incident-access';

/**
 * Files are the file service's; the incident service lists them (GET /api/incident/{uuid}/file is
 * routed here) from what `incident.file.created` announced: ids, size, mime type, time. The encrypted
 * name and key come with the file itself from the file service. Replays are harmless.
 */
export async function onIncidentFileCreated(tx: Queryable, event: EventEnvelope): Promise<void> {
  const file = event.payload as EventPayload<'incident.file.created'>;
  if (!event.company_id) throw new UnprocessableEventError('incident.file.created without a company');
  await incidentRepository.upsertFile(tx, {
    id: file.incident_file_id,
    incidentId: file.incident_id,
    companyId: event.company_id,
    incidentMessageId: file.incident_message_id,
    fileSize: file.file_size,
    mimeType: file.mime_type,
    createdAt: event.occurred_at,
  });
  await incidentRepository.touch(tx, event.company_id, file.incident_id, event.occurred_at);
}

export async function listFiles(db: Database, actor: IncidentActor): Promise<IncidentFileSummary[]> {
  const rows = await incidentRepository.filesOf(db, actor.companyId, actor.incidentId);
  return rows.map((row) => ({
    uuid: row.id,
    incident_uuid: row.incident_id,
    incident_message_uuid: row.incident_message_id,
    file_size: Number(row.file_size),
    mime_type: row.mime_type,
    created: row.created_at.toISOString(),
  }));
}
