import type { StaffPrincipal } from '@whistle/tokens';
import { companyRepository } from '../../data-access/company.repository';
import type { AccountDependencies } from './account-dependencies';

/**
 * PUT /api/account/company/mfa (ADMIN): whether every staff member must use MFA. Users without a factor
 * then get tokens that only reach MFA set-up (`mfa_enrollment_required`) from their next sign-in on.
 */
export async function setCompanyMfaRequired(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  required: boolean,
): Promise<{ mfa_required: boolean }> {
  await companyRepository.setMfaRequired(deps.db, principal.companyId, required);
  return { mfa_required: required };
}
