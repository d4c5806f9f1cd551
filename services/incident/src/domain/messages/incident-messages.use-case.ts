import { randomUUID } from 'node:crypto';
import type { IncidentMessage } from '@whistle/contracts';
import { NotFoundError, type Database, type UnitOfWork } from '@whistle/service-kit';
import { incidentRepository } from '../../data-access/incident.repository';
import { messageRepository, type MessageRow } from '../../data-access/message.repository';
import type { IncidentActor } from '../access/incident-actor';

export interface MessageDependencies {
  unitOfWork: UnitOfWork;
}

function toMessage(row: MessageRow): IncidentMessage {
  return {
    uuid: row.id,
    incident_uuid: row.incident_id,
    content: row.content,
    created: row.created_at.toISOString(),
    sender: { name: row.sender_name, source: row.sender_source },
  };
}

/** Adds an encrypted message to the incident and announces it (ids only), in one transaction. */
export async function postMessage(
  deps: MessageDependencies,
  actor: IncidentActor,
  content: string,
): Promise<IncidentMessage> {
  const id = randomUUID();
  const row = await deps.unitOfWork(async (tx) => {
    if (!(await incidentRepository.incidentExists(tx, actor.companyId, actor.incidentId)))
      throw new NotFoundError('Incident not found');
    const inserted = await messageRepository.insert(tx, {
      id,
      incidentId: actor.incidentId,
      companyId: actor.companyId,
      content,
      senderSource: actor.source,
      senderName: actor.name,
      senderUserId: actor.userId,
    });
    await incidentRepository.touch(tx, actor.companyId, actor.incidentId, inserted.created_at);
    await tx.addEvent({
      name: 'incident.message.created',
      company_id: actor.companyId,
      payload: { incident_id: actor.incidentId, incident_message_id: id, sender_source: actor.source },
    });
    return inserted;
  });
  return toMessage(row);
}

/** The thread of an incident, oldest first. */
export async function listMessages(db: Database, actor: IncidentActor): Promise<IncidentMessage[]> {
  return (await messageRepository.ofIncident(db, actor.companyId, actor.incidentId)).map(toMessage);
}
