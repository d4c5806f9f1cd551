import { InputError, NotAllowedError } from '@whistle/service-kit';
import { isBlockedDomain } from './email-domain-policy';

/**
 * Who may register a company on this platform (the operator's choice, docs/operations.md "Onboarding"): anyone with
 * an organisation's address (`open`), only the listed e-mail domains (`allowlist`), or nobody (`closed`: companies
 * are created by the operator's own onboarding, e.g. from an allow-listed address).
 */
export interface OnboardingPolicy {
  mode: 'open' | 'allowlist' | 'closed';
  allowedDomains: readonly string[];
  blockedDomains: readonly string[];
}

export const ONBOARDING_CLOSED_MESSAGE = 'Company registration is closed on this platform';

/** Throws when `emailDomain` may not register a company: 403 when onboarding is closed, the spec's `invalid` flag otherwise. */
export function assertMayOnboard(policy: OnboardingPolicy, emailDomain: string): void {
  if (policy.mode === 'closed') throw new NotAllowedError(ONBOARDING_CLOSED_MESSAGE);
  const refused =
    isBlockedDomain(emailDomain, policy.blockedDomains) ||
    (policy.mode === 'allowlist' && !policy.allowedDomains.includes(emailDomain));
  if (refused)
    throw new InputError(
      'Bad Request',
      { 'user_profile.email': ['Your email address is not approved for a Whistleblowing account'] },
      { invalid: true },
    );
}
