import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { CompanyCreateRequest } from '@whistle/contracts';
import type { Database, Logger } from '@whistle/service-kit';
import type { Mailer } from '@whistle/mailer';
import { companyRegistrationRepository } from '../../data-access/company-registration.repository';
import { companyRepository } from '../../data-access/company.repository';
import { userRepository } from '../../data-access/user.repository';
import { secretLifetimes } from '../account/abuse-limits';
import { accountMails } from '../account/account-mails';
import { sendInBackground } from '../account/account-dependencies';
import { newOneTimeSecret } from '../account/one-time-secret';
import type { KeyEncryptionKey } from '../secrets/key-encryption';
import { emailDomainOf } from './email-domain-policy';
import { domainExists } from './onboarding-errors';
import { assertMayOnboard, type OnboardingPolicy } from './onboarding-policy';
import { makeUrlIdentifier } from './url-identifier';

/** OWASP's argon2id profile (19 MiB, 2 passes): strong, and cheap enough for a 2-core node. */
export const passwordHashOptions = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export interface CreateCompanyDependencies {
  db: Database;
  kek: KeyEncryptionKey;
  onboarding: OnboardingPolicy;
  mailer: Mailer;
  logger: Logger;
  /** Origin of the browser app, for the confirmation link. */
  publicUrl: string;
}

/**
 * Onboarding: the company is registered, and exists only once its first admin confirms the link e-mailed to the
 * address given (confirm-company.use-case): nobody can take a domain, or its SSO, with an address they do not own.
 * The registration holds the prepared company (the password already hashed, the passphrase already wrapped).
 */
export async function createCompany(
  deps: CreateCompanyDependencies,
  input: CompanyCreateRequest,
): Promise<{ url_identifier: string }> {
  const email = input.user_profile.email.toLowerCase();
  const emailDomain = emailDomainOf(email);
  assertMayOnboard(deps.onboarding, emailDomain);
  const passwordHash = await hash(input.user_profile.password, passwordHashOptions);
  const companyId = randomUUID();
  const link = newOneTimeSecret();

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
      wrapped_passphrase: deps.kek.wrap(input.passphrase, companyId),
      secretHash: link.hash,
      ttlMs: secretLifetimes.company_confirmation,
    });
    return candidate;
  });
  sendInBackground(
    deps,
    accountMails.companyConfirmation(email, input.name, companyConfirmationLink(deps.publicUrl, link.secret)),
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
