import { randomUUID } from 'node:crypto';
import type { Transaction } from '@whistle/service-kit';
import { caseRepository } from '../../data-access/case.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { messageRepository, type MessageRow } from '../../data-access/message.repository';
import { eventActorOf, type IncidentActor } from '../access/incident-actor';

/**
 * Adds an encrypted message to the incident inside `tx` and announces it (ids only); a message marked as
 * feedback stops the feedback clock. Answers the row, and whether this message stopped the clock (the
 * caller announces that change, alone or with the rest of its own).
 */
export async function addMessage(
  tx: Transaction,
  actor: IncidentActor,
  content: string,
  { feedback, final = false }: { feedback: boolean; final?: boolean },
): Promise<{ row: MessageRow; feedbackGiven: boolean }> {
  const id = randomUUID();
  const row = await messageRepository.insert(tx, {
    id,
    incidentId: actor.incidentId,
    companyId: actor.companyId,
    content,
    senderSource: actor.source,
    senderName: actor.name,
    senderUserId: actor.userId,
    feedback,
    final,
  });
  await incidentRepository.touch(tx, actor.companyId, actor.incidentId, row.created_at);
  await tx.addEvent({
    name: 'incident.message.created',
    company_id: actor.companyId,
    payload: { incident_id: actor.incidentId, incident_message_id: id, sender_source: actor.source },
    actor: eventActorOf(actor),
  });
  const feedbackGiven =
    feedback && (await caseRepository.markFeedbackGiven(tx, actor.companyId, actor.incidentId, row.created_at));
  return { row, feedbackGiven };
}
