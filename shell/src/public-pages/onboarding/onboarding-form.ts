import { isStaffLanguage, type CompanyCreateRequest } from '@whistle/contracts';
import type { onboardingKeys } from '../keys/password-keys';
import { MIN_PASSWORD_LENGTH } from '../keys/password-rules';

/** Input names of the onboarding form (spec §5). */
export const ONBOARDING_FIELDS = [
  'email',
  'full_name',
  'company_name',
  'password',
  'repeat_password',
  'country',
] as const;
export type OnboardingField = (typeof ONBOARDING_FIELDS)[number];
export type OnboardingValues = Record<OnboardingField, string>;

/** Translation keys of client-side errors. */
export type OnboardingErrorKey =
  | 'common:validation.required'
  | 'common:validation.email'
  | 'common:validation.passwordsMismatch'
  | 'shell:onboarding.passwordLength';
export type OnboardingErrors = Partial<Record<OnboardingField, OnboardingErrorKey>>;

const REQUIRED: readonly OnboardingField[] = ['email', 'full_name', 'company_name', 'password', 'country'];
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Values are trimmed (spec §5), passwords included. */
export function readOnboardingValues(form: FormData): OnboardingValues {
  return Object.fromEntries(
    ONBOARDING_FIELDS.map((field) => [field, String(form.get(field) ?? '').trim()]),
  ) as OnboardingValues;
}

export function validateOnboarding(values: OnboardingValues): OnboardingErrors {
  const errors: OnboardingErrors = {};
  for (const field of REQUIRED) {
    if (!values[field]) errors[field] = 'common:validation.required';
  }
  if (values.email && !EMAIL.test(values.email)) errors.email = 'common:validation.email';
  if (values.password && values.password.length < MIN_PASSWORD_LENGTH)
    errors.password = 'shell:onboarding.passwordLength';
  if (values.password && values.password !== values.repeat_password) {
    errors.repeat_password = 'common:validation.passwordsMismatch';
  }
  return errors;
}

/**
 * POST /api/account/company from the form's values and the keys made for them. Beside the spec's fields (issue #29),
 * the page's language when the staff mails are written in it: the confirmation and welcome mails, and the founding
 * admin's later ones, are then in it (without one, English).
 */
export function companyCreateRequest(
  values: OnboardingValues,
  keys: Awaited<ReturnType<typeof onboardingKeys>>,
  pageLanguage: string,
): CompanyCreateRequest {
  return {
    user_profile: {
      email: values.email,
      full_name: values.full_name,
      ...keys.user,
      ...(isStaffLanguage(pageLanguage) && { language: pageLanguage }),
    },
    name: values.company_name,
    credential: keys.credential,
    passphrase: keys.passphrase,
    country: values.country,
  };
}
