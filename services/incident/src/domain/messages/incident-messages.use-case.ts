import type { IncidentMessage, StaffSignatureBody } from '@whistle/contracts';
import { InputError, TooManyRequestsError, type Database, type UnitOfWork } from '@whistle/service-kit';
import { caseReadRepository } from '../../data-access/case-read.repository';
import { caseRepository } from '../../data-access/case.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { messageRepository, type MessageRow } from '../../data-access/message.repository';
import { eventActorOf, notFound, type IncidentActor } from '../access/incident-actor';
import { addMessage } from './add-message';
import { discloserMessageLimits } from './discloser-message-limits';

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
    feedback: row.feedback,
    final: row.final,
    signature:
      row.signer_key_id && row.signature_nonce && row.signature
        ? { signer_key_id: row.signer_key_id, nonce: row.signature_nonce, signature: row.signature }
        : null,
  };
}

/**
 * Adds an encrypted message to the incident and announces it (ids only), in one transaction. A staff
 * reply marked as feedback stops the case's feedback clock (the directive's "feedback to the reporter").
 * A discloser writes at most `discloserMessageLimits.perIncidentPerHour` messages an hour on a case.
 */
export async function postMessage(
  deps: MessageDependencies,
  actor: IncidentActor,
  content: string,
  { feedback = false, signature }: { feedback?: boolean; signature?: StaffSignatureBody } = {},
): Promise<IncidentMessage> {
  if (feedback && actor.source !== 'STAFF')
    throw new InputError('Invalid request body', { feedback: ['Only case handlers give feedback'] });
  const row = await deps.unitOfWork(async (tx) => {
    if (!(await incidentRepository.incidentExists(tx, actor.companyId, actor.incidentId))) throw notFound();
    if (
      actor.source === 'DISCLOSER' &&
      (await messageRepository.discloserMessagesInLastHour(tx, actor.companyId, actor.incidentId)) >=
        discloserMessageLimits.perIncidentPerHour
    )
      throw new TooManyRequestsError('Too many messages were sent, please try again later', 3600);
    const added = await addMessage(tx, actor, content, { feedback, signature });
    if (added.feedbackGiven) {
      const [current] = await caseRepository.summaries(tx, actor.companyId, [actor.incidentId]);
      await tx.addEvent({
        name: 'incident.updated',
        company_id: actor.companyId,
        payload: {
          incident_id: actor.incidentId,
          display_report_number: current!.display_report_number,
          status: current!.status,
          previous_status: current!.status,
          outcome: current!.outcome,
          changes: ['feedback'],
          category_ids: current!.category_ids,
        },
        actor: eventActorOf(actor),
      });
    }
    return added.row;
  });
  return toMessage(row);
}

/**
 * The thread of an incident, oldest first. Given to a staff member, it is also marked read for them up to its newest
 * discloser message (the list's unread marker). Marked here rather than by a call of its own: the case page asks
 * for the thread to show it, and again after each change; the mark then covers exactly the messages this answer
 * holds, so one arriving between the thread and a separate "read" call cannot be marked unseen, and the page makes
 * no extra request. A staff caller that reads threads without showing them must not use this route.
 */
export async function listMessages(db: Database, actor: IncidentActor): Promise<IncidentMessage[]> {
  const { userId } = actor;
  if (actor.source !== 'STAFF' || !userId)
    return (await messageRepository.ofIncident(db, actor.companyId, actor.incidentId)).map(toMessage);
  const rows = await db.transaction(async (tx) => {
    const thread = await messageRepository.ofIncident(tx, actor.companyId, actor.incidentId);
    const newest = thread.findLast((row) => row.sender_source === 'DISCLOSER');
    if (newest)
      await caseReadRepository.markRead(tx, {
        companyId: actor.companyId,
        incidentId: actor.incidentId,
        userId,
        messageId: newest.id,
      });
    return thread;
  });
  return rows.map(toMessage);
}
