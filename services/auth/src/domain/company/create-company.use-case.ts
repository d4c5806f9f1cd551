import { randomUUID } from 'node:crypto';
import { staffLanguageOrEnglish, type CompanyCreateRequest } from '@whistle/contracts';
import type { Database, Logger } from '@whistle/service-kit';
import type { Mailer } from '@whistle/mailer';
import { companyRegistrationRepository } from '../../data-access/company-registration.repository';
import { companyRepository } from '../../data-access/company.repository';
import { userRepository } from '../../data-access/user.repository';
import { secretLifetimes } from '../account/abuse-limits';
import { accountMails } from '../account/account-mails';
import { sendInBackground } from '../account/account-dependencies';
import { newOneTimeSecret } from '../account/one-time-secret';
import { hashPassword } from '../account/password-hash';
import { emailDomainOf } from './email-domain-policy';
import { domainExists } from './onboarding-errors';
import { assertMayOnboard, type OnboardingPolicy } from './onboarding-policy';
import { makeUrlIdentifier } from './url-identifier';

export interface CreateCompanyDependencies {
  db: Database;
  onboarding: OnboardingPolicy;
  mailer: Mailer;
  logger: Logger;
  /** Origin of the browser app, for the confirmation link. */
  publicUrl: string;
}

/**
 * Onboarding: the company is registered, and exists only once its first admin confirms the link e-mailed to the
 * address given (confirm-company.use-case): nobody can take a domain, or its SSO, with an address they do not own.
 * The registration holds the prepared company: the hash of the admin's authentication secret, their keys, the
 * company key wrapped to them and sealed for the recovery kit — nothing the server could open a report with.
 */
export async function createCompany(
  deps: CreateCompanyDependencies,
  input: CompanyCreateRequest,
): Promise<{ url_identifier: string }> {
  const email = input.user_profile.email.toLowerCase();
  const emailDomain = emailDomainOf(email);
  assertMayOnboard(deps.onboarding, emailDomain);
  const passwordHash = await hashPassword(input.user_profile.password);
  const companyId = randomUUID();
  const link = newOneTimeSecret();
  const language = staffLanguageOrEnglish(input.user_profile.language);

  const urlIdentifier = await deps.db.transaction(async (tx) => {
    if ((await companyRepository.domainTaken(tx, emailDomain)) || (await userRepository.byEmail(tx, email)))
      throw domainExists();
    let candidate = makeUrlIdentifier(input.name);
    while (
      (await companyRepository.urlIdentifierTaken(tx, candidate)) ||
      (await companyRegistrationRepository.urlIdentifierTaken(tx, candidate))
    )
      candidate = makeUrlIdentifier(input.name);
    await companyRegistrationRepository.insert(tx, {
      id: companyId,
      url_identifier: candidate,
      email,
      email_domain: emailDomain,
      full_name: input.user_profile.full_name,
      name: input.name,
      country: input.country,
      password_hash: passwordHash,
      public_key: input.credential.public_key,
      aes_encrypted_private_key: input.credential.aes_encrypted_private_key,
      kdf: input.user_profile.kdf,
      kdf_salt: input.user_profile.kdf_salt,
      admin_keys: input.user_profile.keys,
      // The spec's `passphrase` field carries the admin's grant: the company key wrapped to their own public key.
      admin_grant: input.passphrase,
      language,
      secretHash: link.hash,
      ttlMs: secretLifetimes.company_confirmation,
    });
    return candidate;
  });
  sendInBackground(
    deps,
    accountMails.companyConfirmation(email, input.name, companyConfirmationLink(deps.publicUrl, link.secret), language),
    'company confirmation',
  );
  return { url_identifier: urlIdentifier };
}

/** The link's secret rides in the fragment: it reaches the page, never a server's access log. */
export function companyConfirmationLink(publicUrl: string, secret: string): string {
  const url = new URL('/company/onboarding/confirm', publicUrl);
  url.hash = new URLSearchParams({ token: secret }).toString();
  return url.toString();
}
