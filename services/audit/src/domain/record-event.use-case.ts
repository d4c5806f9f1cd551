import type { EventEnvelope } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { auditEventRepository } from '../data-access/audit-event.repository';
import { staffMemberRepository } from '../data-access/staff-member.repository';
import { auditEntryFacts } from './audit-entry';
import { tokenRevocations } from './token-revocations';

/** Names shown for actors without an account. */
export const DISCLOSER_NAME = 'Discloser';
export const SYSTEM_NAME = 'Whistle';

/** Keeps the staff read model and the revocation list current from auth's events. */
async function followStaff(tx: Queryable, event: EventEnvelope): Promise<void> {
  await tokenRevocations.handle(tx, event);
  const payload = event.payload as Record<string, string>;
  if (!event.company_id) return;
  if (event.name === 'user.created' || event.name === 'user.updated')
    await staffMemberRepository.upsert(tx, {
      userId: payload.user_id,
      companyId: event.company_id,
      fullName: payload.full_name,
    });
  else if (event.name === 'user.deleted')
    await staffMemberRepository.markRemoved(tx, event.company_id, payload.user_id, payload.deleted_at);
}

/** The actor as the trail shows it: a staff member with the name they had when they acted. */
async function actorOf(tx: Queryable, event: EventEnvelope) {
  const actor = event.actor ?? { type: 'SYSTEM' as const };
  if (actor.type === 'DISCLOSER') return { type: actor.type, userId: null, name: DISCLOSER_NAME };
  if (actor.type === 'SYSTEM') return { type: actor.type, userId: null, name: SYSTEM_NAME };
  const known = await staffMemberRepository.nameOf(tx, event.company_id, actor.user_id);
  // A user's first event can arrive before the one that names them (onboarding): their own user.created names them.
  const ownName = event.payload.user_id === actor.user_id ? event.payload.full_name : undefined;
  return { type: actor.type, userId: actor.user_id, name: known ?? (typeof ownName === 'string' ? ownName : '') };
}

/** Appends the event to the company's trail (the database links it into the hash chain). */
export async function recordEvent(tx: Queryable, event: EventEnvelope): Promise<void> {
  // The inbox already keeps a redelivery out; this also holds when an event reaches audit twice by another path.
  if (await auditEventRepository.exists(tx, event.id)) return;
  await followStaff(tx, event);
  const facts = auditEntryFacts(event);
  const actor = await actorOf(tx, event);
  await auditEventRepository.insert(tx, {
    id: event.id,
    companyId: event.company_id,
    name: event.name,
    version: event.version,
    ...facts,
    actor,
    occurredAt: event.occurred_at,
    payload: event.payload,
  });
}
