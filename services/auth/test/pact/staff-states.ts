import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { generate } from 'otplib';
import type { TestDependencies } from '@whistle/service-kit/testing';
import { onboardingPayload, selfSignedCertificate, staffSecrets } from '@whistle/test-support';
import { PACT_KDF_SALT, PACT_PASSWORD } from '../../../../shell/test/pact/fixtures';
import { confirmationTokenIn } from '../staff-client';

export const STAFF_PASSWORD = PACT_PASSWORD;
/** The sign-in secret of STAFF_PASSWORD with the pacts' fixed salt: what the consumers send as `password`. */
const staffSecret = async () => (await staffSecrets(STAFF_PASSWORD, PACT_KDF_SALT)).authSecret;

/**
 * Provider states for the staff pacts, made through auth's own API as a browser would. Each setup
 * call names a fresh client (X-Forwarded-For; loopback is the trusted proxy) so the per-client abuse
 * limits of onboarding and login never trip over the states themselves.
 */
export function staffStates(
  test$: () => TestDependencies,
  baseUrl: () => string,
  mailbox: {
    mailTo: (to: string, subject: RegExp, since: number) => Promise<{ text: string }>;
    mailCount(): number;
  },
) {
  /** Real Bearers replacing the consumers' placeholders ('staff-token', 'mfa-challenge'). */
  const bearers = new Map<string, string>();

  async function call<T>(method: string, path: string, body?: unknown, bearer?: string): Promise<T> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-forwarded-for': `10.${randomBytes(3).join('.')}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`State setup: ${method} ${path} answered ${response.status}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  /** A company (fresh database) whose admin is `email`; answers the admin's access token. */
  async function admin(email: string): Promise<string> {
    await test$().deps.db.query('delete from auth.company');
    bearers.clear();
    const onboarding = await onboardingPayload({
      email,
      password: STAFF_PASSWORD,
      full_name: 'Ada Lovelace',
      kdfSalt: PACT_KDF_SALT,
    });
    const since = mailbox.mailCount();
    await call('POST', '/api/account/company', onboarding.payload);
    // Its admin confirms the e-mailed link, as onboarding asks: only then does the company exist.
    await call('POST', '/api/account/company/confirmation', {
      token: confirmationTokenIn(await mailbox.mailTo(email, /^Confirm your company/, since)),
    });
    const { token } = await call<{ token: string }>('POST', '/api/account/token', {
      username: email,
      password: await staffSecret(),
    });
    bearers.set('staff-token', token);
    return token;
  }

  async function withMfa(email: string): Promise<void> {
    const token = await admin(email);
    const { secret } = await call<{ secret: string }>('POST', '/api/account/company/profile/mfa', undefined, token);
    await call('POST', '/api/account/company/profile/mfa', { challenge_code: await generate({ secret }) }, token);
  }

  return {
    admin,
    withMfa,
    /** The admin's company signs in through an IdP whose (real, self-signed) certificate auth can read. */
    async singleSignOn(email: string): Promise<void> {
      const body = {
        enabled: true,
        entry_point: 'https://idp.settings.example/sso',
        idp_certificate: selfSignedCertificate().cert,
        email_attribute: '',
      };
      await call('PUT', '/api/account/company/sso', body, await admin(email));
    },
    /** The admin's company keeps one reply template; answers its id (the pact's `templateUuid`). */
    async replyTemplate(email: string): Promise<{ templateUuid: string }> {
      const body = { name: 'Received', body: 'We have received your report.' };
      const template = await call<{ uuid: string }>(
        'POST',
        '/api/account/company/reply_template/',
        body,
        await admin(email),
      );
      return { templateUuid: template.uuid };
    },
    async pendingMfa(email: string): Promise<void> {
      await call('POST', '/api/account/company/profile/mfa', undefined, await admin(email));
    },
    async openChallenge(email: string): Promise<void> {
      await withMfa(email);
      const answer = await call<{ challenge_id: string }>('POST', '/api/account/token', {
        username: email,
        password: await staffSecret(),
      });
      bearers.set('mfa-challenge', answer.challenge_id);
    },
    /** Verifier request filter: swaps a placeholder Bearer for the one the state made. */
    requestFilter(req: IncomingMessage, _res: ServerResponse, next: () => void) {
      // A body-less request (none of these pacts sends a body without a type) must stay so through the
      // verifier's proxy, which would otherwise forward it chunked: auth answers 415 to a body of no type.
      if (!req.headers['content-type']) req.headers['content-length'] = '0';
      const placeholder = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const real = placeholder && bearers.get(placeholder);
      if (real) req.headers.authorization = `Bearer ${real}`;
      next();
    },
  };
}
