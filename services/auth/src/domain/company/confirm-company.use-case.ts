import type { CompanyCreateResponse } from '@whistle/contracts';
import { AuthenticationError, type UnitOfWork } from '@whistle/service-kit';
import { companyRegistrationRepository } from '../../data-access/company-registration.repository';
import { companyRepository } from '../../data-access/company.repository';
import { hashOfSecret } from '../account/one-time-secret';
import { activateCompany } from './activate-company';
import { domainExists, isUniqueViolation } from './onboarding-errors';
import { assertMayOnboard, type OnboardingPolicy } from './onboarding-policy';

export interface ConfirmCompanyDependencies {
  unitOfWork: UnitOfWork;
  onboarding: OnboardingPolicy;
}

/**
 * POST /api/account/company/confirmation: the first admin proves they own the address they registered with, and the
 * company exists from then on (its disclosure link, its sign-in, its e-mail domain). The first registration of a
 * domain confirmed wins; the domain's other pending registrations are dropped.
 */
export async function confirmCompany(deps: ConfirmCompanyDependencies, token: string): Promise<CompanyCreateResponse> {
  const secretHash = hashOfSecret(token);
  try {
    return await deps.unitOfWork(async (tx) => {
      const registration = await companyRegistrationRepository.consume(tx, secretHash);
      if (!registration) throw new AuthenticationError('Invalid or expired link');
      // The operator may have closed onboarding, or narrowed it, since the registration.
      assertMayOnboard(deps.onboarding, registration.email_domain);
      if (await companyRepository.domainTaken(tx, registration.email_domain)) throw domainExists();
      await activateCompany(tx, registration);
      await companyRegistrationRepository.deleteForDomain(tx, registration.email_domain);
      return { url_identifier: registration.url_identifier };
    });
  } catch (error) {
    // Two confirmations for one domain at once, or the address invited by another company meanwhile.
    if (isUniqueViolation(error, 'company_email_domain_key') || isUniqueViolation(error, 'user_profile_email_key'))
      throw domainExists();
    throw error;
  }
}
