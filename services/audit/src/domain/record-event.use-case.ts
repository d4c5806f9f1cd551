import type { EventEnvelope } from '@whistle/contracts';
import { eventHandlers, type Queryable } from '@whistle/service-kit';
import { auditEventRepository } from '../data-access/audit-event.repository';
import { caseExclusionRepository } from '../data-access/case-exclusion.repository';
import { staffMemberRepository } from '../data-access/staff-member.repository';
import { auditEntryFacts } from './audit-entry';
import { tokenRevocations } from './token-revocations';

/** Names shown for actors without an account. */
export const DISCLOSER_NAME = 'Discloser';
export const SYSTEM_NAME = 'Whistle';

/** A staff member's name as their user.created or user.updated says it (v1 and v2 of both carry it alike). */
async function recordStaffName(
  tx: Queryable,
  { company_id, payload }: { company_id?: string | null; payload: { user_id: string; full_name: string } },
): Promise<void> {
  if (company_id)
    await staffMemberRepository.upsert(tx, {
      userId: payload.user_id,
      companyId: company_id,
      fullName: payload.full_name,
    });
}

/**
 * Keeps the read models current: staff and the revocation list from auth's events, and who is kept out of which
 * case from incident's (the trail leaves those cases' entries out for them). Only these events are read as more than
 * data, so only they need a handler of their version (the trail records every other one as it came).
 */
const followedEvents = eventHandlers<Queryable>({
  ...tokenRevocations.handlers,
  'user.created@1': (tx, event) => recordStaffName(tx, event),
  'user.updated@1': (tx, event) => recordStaffName(tx, event),
  'user.created@2': (tx, event) => recordStaffName(tx, event),
  'user.updated@2': (tx, event) => recordStaffName(tx, event),
  'user.deleted@1': async (tx, event) => {
    await tokenRevocations.handlers['user.deleted@1'](tx, event);
    if (event.company_id)
      await staffMemberRepository.markRemoved(tx, event.company_id, event.payload.user_id, event.payload.deleted_at);
  },
  'incident.created@1': async () => undefined,
  'incident.created@2': async (tx, event) => {
    if (event.company_id)
      await caseExclusionRepository.add(
        tx,
        event.company_id,
        event.payload.incident_id,
        event.payload.excluded_user_ids,
      );
  },
  'incident.exclusion.changed@1': async (tx, event) => {
    if (event.company_id)
      await caseExclusionRepository.replace(
        tx,
        event.company_id,
        event.payload.incident_id,
        event.payload.excluded_user_ids,
      );
  },
});
const followed = new Set<string>(followedEvents.events);

/**
 * Why the trail cannot take an event: one it follows (staff, revocations, exclusions) in a version it has no handler for,
 * dead-lettered before its entry is written so that the trail and the read model never part.
 */
export function refusalToRecord(event: EventEnvelope): string | undefined {
  return followed.has(event.name) ? followedEvents.refusal(event) : undefined;
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
  if (followed.has(event.name)) await followedEvents.handle(tx, event);
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
