import { AuthenticationError, NotAllowedError, type Database, type UnitOfWork } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';

export interface KeyDependencies {
  db: Database;
  /** Every change of who holds which key is an event for the audit trail (and the incident service). */
  unitOfWork: UnitOfWork;
}

/** How long a request for access to the company key waits for another admin. */
export const ACCESS_REQUEST_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Keys (sealed copies, wrappings) go only to a whole session: MFA complete, or no MFA for the user nor required by
 * the company now (a token from before the company required it does not count).
 */
export async function assertMfaComplete(deps: KeyDependencies, principal: StaffPrincipal): Promise<void> {
  const user = await userRepository.byId(deps.db, principal.companyId, principal.userId);
  if (!user) throw new AuthenticationError();
  const mfaSatisfied = principal.mfa || (user.mfa_secret === null && !user.company_mfa_required);
  if (!mfaSatisfied) throw new NotAllowedError('MFA required');
}
