import type { Transaction } from '@whistle/service-kit';
import { revocationListFor, type StaffPrincipal } from '@whistle/tokens';
import { AUTH_SCHEMA } from '../../data-access/migrations';

/** The logged-out staff tokens auth refuses (the same list, in its schema, as every service that verifies them). */
export const tokenRevocations = revocationListFor(AUTH_SCHEMA);

/**
 * Announces that every session the user had before `notBefore` is over (user.sessions_revoked): auth refuses those
 * tokens through the user's `sessions_valid_after`, the other services through their revocation lists, as soon as
 * they consume the event rather than when the tokens expire.
 */
export async function announceSessionsRevoked(
  tx: Transaction,
  change: {
    companyId: string;
    userId: string;
    notBefore: Date;
    reason: 'password_changed' | 'roles_changed';
    actorId: string;
  },
): Promise<void> {
  await tx.addEvent({
    name: 'user.sessions_revoked',
    company_id: change.companyId,
    payload: { user_id: change.userId, not_before: change.notBefore.toISOString(), reason: change.reason },
    actor: { type: 'STAFF', user_id: change.actorId },
  });
}

/** Ends one session (logout, a token replaced): its jti is refused here at once and, through token.revoked, everywhere. */
export async function revokeStaffToken(tx: Transaction, principal: StaffPrincipal): Promise<void> {
  if (!(await tokenRevocations.revokeToken(tx, principal.tokenId, principal.expiresAt))) return;
  await tx.addEvent({
    name: 'token.revoked',
    company_id: principal.companyId,
    payload: { jti: principal.tokenId, user_id: principal.userId, expires_at: principal.expiresAt.toISOString() },
    actor: { type: 'STAFF', user_id: principal.userId },
  });
}
