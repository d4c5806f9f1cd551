import type { StaffPrincipal } from '@whistle/service-kit';
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
  await deps.db.query('update auth.company set mfa_required = $2, updated_at = now() where id = $1', [
    principal.companyId,
    required,
  ]);
  return { mfa_required: required };
}
