import { randomUUID } from 'node:crypto';
import type { StaffSignatureBody } from '@whistle/contracts';
import { InputError, type Transaction } from '@whistle/service-kit';
import { caseRepository } from '../../data-access/case.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { messageRepository, type MessageRow, type MessageSignature } from '../../data-access/message.repository';
import { eventActorOf, type IncidentActor } from '../access/incident-actor';

/**
 * A staff message's signature, stored as far as a server can vouch for it: a staff member sent it (the contract
 * checked its shape), with the id of their current signing key, which the discloser's browser checks it against.
 * Whether it verifies, and whether the key is one the discloser trusts, only that browser can tell
 * (docs/security.md, "Signed staff messages").
 */
async function signatureOf(
  tx: Transaction,
  actor: IncidentActor,
  signature: StaffSignatureBody | undefined,
  field: string,
): Promise<MessageSignature | null> {
  if (!signature) return null;
  const signerKeyId =
    actor.source === 'STAFF' && actor.userId
      ? await messageRepository.currentKeyOf(tx, actor.companyId, actor.userId)
      : undefined;
  if (!signerKeyId) throw new InputError('Invalid request body', { [field]: ['You have no signing key yet'] });
  return { signerKeyId, nonce: signature.nonce, signature: signature.signature };
}

/**
 * Adds an encrypted message to the incident inside `tx` and announces it (ids only); a message marked as
 * feedback stops the feedback clock. Answers the row, and whether this message stopped the clock (the
 * caller announces that change, alone or with the rest of its own).
 */
export async function addMessage(
  tx: Transaction,
  actor: IncidentActor,
  content: string,
  {
    feedback,
    final = false,
    signature,
    signatureField = 'signature',
  }: { feedback: boolean; final?: boolean; signature?: StaffSignatureBody; signatureField?: string },
): Promise<{ row: MessageRow; feedbackGiven: boolean }> {
  const id = randomUUID();
  const checked = await signatureOf(tx, actor, signature, signatureField);
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
    signature: checked,
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
