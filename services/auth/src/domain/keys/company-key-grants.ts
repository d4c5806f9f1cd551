import { NotAllowedError, type Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { companyKeyRepository, type GrantReason } from '../../data-access/company-key.repository';

/** What granting the company key means, shared by the key use cases (grants, migration, rotation). */
export const staffActor = (principal: StaffPrincipal) => ({ type: 'STAFF' as const, user_id: principal.userId });

/** The admin's own current grant, required to hand the key on (a browser that cannot open it cannot grant it). */
export async function requireHolder(tx: Transaction, principal: StaffPrincipal, version: number): Promise<void> {
  const grants = await companyKeyRepository.grantsOf(tx, principal.companyId, principal.userId);
  if (!grants.some((grant) => grant.key_version === version))
    throw new NotAllowedError('You do not hold the company key');
}

export async function recordGrant(
  tx: Transaction,
  principal: StaffPrincipal,
  grant: { userId: string; keyId: string; version: number; wrapped: string; fingerprint: string; reason: GrantReason },
): Promise<void> {
  await companyKeyRepository.grant(tx, principal.companyId, {
    key_version: grant.version,
    user_id: grant.userId,
    key_id: grant.keyId,
    wrapped_private_key: grant.wrapped,
    grantedBy: principal.userId,
    reason: grant.reason,
  });
  await tx.addEvent({
    name: 'company.key_granted',
    company_id: principal.companyId,
    payload: {
      user_id: grant.userId,
      key_version: grant.version,
      fingerprint: grant.fingerprint,
      reason: grant.reason,
    },
    actor: staffActor(principal),
  });
}
