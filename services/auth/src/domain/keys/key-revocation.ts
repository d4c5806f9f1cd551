import type { Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { companyKeyRepository } from '../../data-access/company-key.repository';

/**
 * A person loses the company key at once when they are removed or stop being an admin (in the caller's
 * transaction, with the change).
 */
export async function revokeCompanyKey(
  tx: Transaction,
  principal: StaffPrincipal,
  userId: string,
  reason: 'user_deleted' | 'admin_role_removed',
): Promise<void> {
  await companyKeyRepository.deleteRequestsOf(tx, principal.companyId, userId);
  if (!(await companyKeyRepository.revokeAll(tx, principal.companyId, userId))) return;
  await tx.addEvent({
    name: 'company.key_revoked',
    company_id: principal.companyId,
    payload: { user_id: userId, key_version: null, reason },
    actor: { type: 'STAFF', user_id: principal.userId },
  });
}
