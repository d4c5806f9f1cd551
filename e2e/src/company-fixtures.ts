import { randomBytes } from 'node:crypto';
import type { CompanyCreateRequest } from '@whistle/contracts';
import { onboardingPayload } from '@whistle/test-support';

/** The onboarded admin's password: what a test types; the payload carries only the secret derived from it. */
export const ADMIN_PASSWORD = 'correct horse battery staple';
import { CONFIRMATION_SUBJECT, confirmationTokenIn, type Mailbox } from './mailbox';

/** A company e-mail domain no other test uses: onboarding allows one company per domain. */
export function uniqueDomain(): string {
  return `acme-${randomBytes(5).toString('hex')}.example`;
}

/**
 * A valid onboarding payload, made the way the admin's browser makes it: the password derived (ADMIN_PASSWORD, or
 * `password`), the admin's keys, the company key granted to them and sealed for a recovery kit.
 */
export async function companyPayload(
  overrides: Partial<CompanyCreateRequest> = {},
  { email = `ada@${uniqueDomain()}`, password = ADMIN_PASSWORD } = {},
): Promise<CompanyCreateRequest> {
  const made = await onboardingPayload({
    email,
    password,
    full_name: 'Ada Lovelace',
    name: 'Acme Corporation',
    country: 'FR',
  });
  return { ...made.payload, ...overrides };
}

export async function postJson(baseUrl: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * The admin confirms the link onboarding mailed to `email`, as their browser does (the token from the link's
 * fragment, POSTed): the company exists from then on. Answers its url_identifier.
 */
export async function confirmRegistration(baseUrl: string, mailbox: Mailbox, email: string): Promise<string> {
  const token = confirmationTokenIn(await mailbox(email, CONFIRMATION_SUBJECT));
  const response = await postJson(baseUrl, '/api/account/company/confirmation', { token });
  if (response.status !== 200) throw new Error(`Confirmation answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { url_identifier: string }).url_identifier;
}

/** Onboards `payload` through the API and confirms it: an active company; its url_identifier. */
export async function onboardAndConfirm(
  platform: { baseUrl: string; mailbox: Mailbox },
  payload: CompanyCreateRequest,
): Promise<string> {
  const response = await postJson(platform.baseUrl, '/api/account/company', payload);
  if (response.status !== 201) throw new Error(`Onboarding answered ${response.status}: ${await response.text()}`);
  return confirmRegistration(platform.baseUrl, platform.mailbox, payload.user_profile.email.toLowerCase());
}

/** The mailbox of a platform composed in-process with a recording mailer. */
export function recordingMailbox(sent: readonly { to: string; subject: string; text: string }[]): Mailbox {
  return async (to, subject) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = sent.find((candidate) => candidate.to === to && subject.test(candidate.subject));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}
