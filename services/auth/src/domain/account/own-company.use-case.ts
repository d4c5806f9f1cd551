import type { OwnCompany } from '@whistle/contracts';
import { NotFoundError, type StaffPrincipal } from '@whistle/service-kit';
import { accountRepository } from '../../data-access/account.repository';
import type { AccountDependencies } from './account-dependencies';

/** GET /api/account/company/: the caller's company only, whatever ids the request carries. */
export async function ownCompany(deps: AccountDependencies, principal: StaffPrincipal): Promise<OwnCompany> {
  const company = await accountRepository.ownCompany(deps.db, principal.companyId);
  if (!company) throw new NotFoundError('Company not found');
  const userProfiles = await accountRepository.companyUsers(deps.db, company.id);
  const categories = await accountRepository.allCategories(deps.db, company.id);
  const locations = await accountRepository.allLocations(deps.db, company.id);
  return {
    uuid: company.id,
    name: company.name,
    country: company.country.trim(),
    url_identifier: company.url_identifier,
    public_key: company.public_key,
    logo: company.logo,
    title: company.title,
    description: company.description,
    mfa_required: company.mfa_required,
    sso_enabled: company.sso_enabled,
    settings: { resolution_deadline_days: company.resolution_deadline_days, notifications: company.notifications },
    user_profiles: userProfiles,
    categories,
    locations,
  };
}
