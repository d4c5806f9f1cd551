import type { EventPayload, MailPreferences } from '@whistle/contracts';
import type { Queryable, Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';

/** A member's mail preferences as stored, every kind the member has not turned off being on. */
export async function mailPreferencesOf(
  db: Queryable,
  companyId: string,
  userId: string,
): Promise<(MailPreferences & { email: string; full_name: string; roles: string[] }) | undefined> {
  const row = await userRepository.announced(db, companyId, userId);
  if (!row) return undefined;
  const on = (kind: keyof MailPreferences['notifications']) => row.notifications[kind] !== false;
  return {
    ...row,
    notifications: {
      new_incidents: on('new_incidents'),
      assigned_to_an_incident: on('assigned_to_an_incident'),
      incident_updates: on('incident_updates'),
      deadlines: on('deadlines'),
    },
  };
}

/**
 * Announces a member's whole current state (user.updated) after a change of name, roles or mail preferences,
 * for the other services' read models (who to mail, names in case histories); answers that state.
 */
export async function announceUserUpdated(
  tx: Transaction,
  actor: StaffPrincipal,
  companyId: string,
  userId: string,
): Promise<EventPayload<'user.updated', 2>> {
  const member = await mailPreferencesOf(tx, companyId, userId);
  if (!member) throw new Error(`user ${userId} vanished inside its own update`);
  const payload: EventPayload<'user.updated', 2> = {
    user_id: userId,
    email: member.email,
    full_name: member.full_name,
    roles: member.roles as EventPayload<'user.updated', 2>['roles'],
    language: member.language,
    notifications: member.notifications,
  };
  await tx.addEvent({
    name: 'user.updated',
    version: 2,
    company_id: companyId,
    payload,
    actor: { type: 'STAFF', user_id: actor.userId },
  });
  return payload;
}
