import { randomUUID } from 'node:crypto';
import type { IncidentMessage } from '@whistle/contracts';
import { NotFoundError, type Database, type Outbox } from '@whistle/service-kit';
import { incidentRepository, type MessageRow } from '../../data-access/incident.repository';
import type { IncidentActor } from '../../entry-points/http/incident-access';

export interface MessageDependencies {
  db: Database;
  outbox: Outbox;
}

/**
 * The name shown with a discloser's message ('Message sent by {name}'). The server knows no
 * discloser's name (it is an encrypted field, if given at all), so disclosers are named by their role.
 */
export const DISCLOSER_SENDER_NAME = 'Discloser';

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
  const row = await deps.db.transaction(async (tx) => {
    if (!(await incidentRepository.incidentExists(tx, actor.companyId, actor.incidentId)))
      throw new NotFoundError('Incident not found');
    const inserted = await incidentRepository.insertMessage(tx, {
      id,
      incidentId: actor.incidentId,
      companyId: actor.companyId,
      content,
      senderSource: actor.source,
      senderName: actor.name,
      senderUserId: actor.userId,
    });
    await incidentRepository.touch(tx, actor.companyId, actor.incidentId, inserted.created_at);
    await deps.outbox.add(tx, {
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
  return (await incidentRepository.messagesOf(db, actor.companyId, actor.incidentId)).map(toMessage);
}
