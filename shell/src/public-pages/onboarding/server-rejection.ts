import { ApiError } from '@whistle/api-client';
import type { ErrorBody } from '@whistle/contracts';
import type { OnboardingField } from './onboarding-form';

/** Payload paths of POST /api/account/company → input names of the form. */
const FIELD_OF_PATH: Readonly<Record<string, OnboardingField>> = {
  'user_profile.email': 'email',
  'user_profile.full_name': 'full_name',
  'user_profile.password': 'password',
  name: 'company_name',
  country: 'country',
};

/** Messages of the server schema that have a translation; others are shown as the server wrote them. */
const TRANSLATED_MESSAGES: Readonly<Record<string, string>> = {
  'This field is required': 'common:validation.required',
  'Invalid email address': 'common:validation.email',
  'Passwords do not match': 'common:validation.passwordsMismatch',
  'Password must be at least 10 characters': 'shell:onboarding.passwordLength',
};

export type ServerMessage = { key: string } | { text: string };

export interface ServerRejection {
  fields: Partial<Record<OnboardingField, ServerMessage>>;
  notice?: 'shell:onboarding.exists' | 'shell:onboarding.invalid' | 'shell:onboarding.closed';
}

const toMessage = (text: string): ServerMessage =>
  Object.hasOwn(TRANSLATED_MESSAGES, text) ? { key: TRANSLATED_MESSAGES[text] } : { text };

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' && body !== null && typeof (body as ErrorBody).message === 'string';

/**
 * A 400 answer the form can explain (spec §8: per-field errors, `exists`, `invalid`), the 403 of a platform whose
 * operator closed company registration, or undefined for anything else, which the caller rethrows.
 */
export function readServerRejection(error: unknown): ServerRejection | undefined {
  if (error instanceof ApiError && error.status === 403) return { fields: {}, notice: 'shell:onboarding.closed' };
  if (!(error instanceof ApiError) || error.status !== 400 || !isErrorBody(error.body)) return undefined;
  const { errors = {}, exists, invalid } = error.body;
  const fields: ServerRejection['fields'] = {};
  for (const [path, messages] of Object.entries(errors)) {
    const field = FIELD_OF_PATH[path];
    if (field && messages.length > 0) fields[field] = toMessage(messages[0]);
  }
  const notice = exists ? 'shell:onboarding.exists' : invalid ? 'shell:onboarding.invalid' : undefined;
  if (!notice && Object.keys(fields).length === 0) return undefined;
  return { fields, notice };
}
