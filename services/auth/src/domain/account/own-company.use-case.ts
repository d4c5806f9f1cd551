import type { OwnCompany } from '@whistle/contracts';
import { NotFoundError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';
import { companyRepository } from '../../data-access/company.repository';
import { categoryRepository } from '../../data-access/category.repository';
import { locationRepository } from '../../data-access/location.repository';
import { customizationOf, languagesOf, logoUrl } from '../customization/company-customization';
import type { AccountDependencies } from './account-dependencies';

/** GET /api/account/company/: the caller's company only, whatever ids the request carries. */
export async function ownCompany(deps: AccountDependencies, principal: StaffPrincipal): Promise<OwnCompany> {
  const company = await companyRepository.ownCompany(deps.db, principal.companyId);
  if (!company) throw new NotFoundError('Company not found');
  const userProfiles = await userRepository.ofCompany(deps.db, company.id);
  const categories = await categoryRepository.ofCompany(deps.db, company.id);
  const locations = await locationRepository.ofCompany(deps.db, company.id);
  return {
    uuid: company.id,
    name: company.name,
    country: company.country.trim(),
    url_identifier: company.url_identifier,
    public_key: company.public_key,
    // The public address of the landing logo (as in the discloser's view), not the stored hash.
    logo: company.logo ? logoUrl(company.url_identifier, company.logo) : null,
    title: company.title,
    description: company.description,
    translations: customizationOf(company).translations,
    languages: languagesOf(company),
    mfa_required: company.mfa_required,
    sso_enabled: company.sso_enabled,
    settings: {
      resolution_deadline_days: company.resolution_deadline_days,
      notifications: company.notifications,
      shows_recipient_names: company.shows_recipient_names,
    },
    user_profiles: userProfiles.map((user) => ({
      ...user,
      last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    })),
    categories,
    locations,
  };
}
