import { AuthenticationError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';
import { sessionRepository } from '../../data-access/session.repository';
import { revokeStaffToken, tokenRevocations } from './token-revocations';
import type { AccountDependencies } from './account-dependencies';

/**
 * What auth itself refuses beyond signature and expiry: a revoked jti, a deleted user, or a token
 * older than the user's last password change (compared in whole seconds, as `iat` is).
 */
export async function isSessionRevoked(
  deps: Pick<AccountDependencies, 'db'>,
  principal: StaffPrincipal,
): Promise<boolean> {
  return (
    (await tokenRevocations.isRevoked(deps.db, principal)) ||
    (await sessionRepository.userSessionEnded(deps.db, principal))
  );
}

/** POST /api/account/token/revoke (logout): the jti is refused here at once and, through the event, by every service. */
export async function revokeSession(
  deps: Pick<AccountDependencies, 'unitOfWork'>,
  principal: StaffPrincipal,
): Promise<void> {
  await deps.unitOfWork((tx) => revokeStaffToken(tx, principal));
}

/**
 * POST /api/account/token/refresh: a fresh token for a live one, which is revoked. Roles and MFA state
 * are read again (a demoted user loses a role at the next refresh); the sign-in time is kept, so a
 * session ends SESSION_MAX_SECONDS after the password or code was given.
 */
export async function refreshSession(deps: AccountDependencies, principal: StaffPrincipal): Promise<{ token: string }> {
  const user = await userRepository.byId(deps.db, principal.companyId, principal.userId);
  if (!user) throw new AuthenticationError();
  await revokeSession(deps, principal);
  const { token } = await deps.issuer.issue({
    userId: user.id,
    companyId: user.company_id,
    roles: user.roles,
    mfa: principal.mfa && user.mfa_secret !== null,
    mfaEnrollmentRequired: user.company_mfa_required && user.mfa_secret === null,
    authTime: Math.floor(principal.authenticatedAt.getTime() / 1000),
  });
  return { token };
}
