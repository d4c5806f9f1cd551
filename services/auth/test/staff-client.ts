import { randomUUID } from 'node:crypto';
import { createCompanyCredentials } from '@whistle/crypto';

/**
 * Requests as the browser makes them; each test names its client address, as an ingress would forward it. Like
 * a browser, a client keeps the cookies it is given and sends them back (name and value only: the service's
 * cookies are all scoped to its own paths).
 */
export function staffClient(
  baseUrl: string,
  clientAddress = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
) {
  const jar = new Map<string, string>();
  const call = async (
    method: string,
    path: string,
    { body, bearer, form }: { body?: unknown; bearer?: string; form?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': clientAddress };
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    let payload: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [, name, value] = /^([^=]+)=([^;]*)/.exec(cookie) ?? [];
      if (!name) continue;
      if (value === '' || /;\s*max-age=0\b/i.test(cookie) || /;\s*expires=Thu, 01 Jan 1970/i.test(cookie))
        jar.delete(name);
      else jar.set(name, value);
    }
    const text = await response.text();
    // Tests read any field of any answer.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    type AnyBody = Record<string, any>;
    const json =
      text && response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as AnyBody) : undefined;
    return { status: response.status, body: json ?? {}, headers: response.headers };
  };
  return {
    call,
    login: (username: string, password: string) => call('POST', '/api/account/token', { body: { username, password } }),
  };
}

export const adminPassword = 'admin password 1234';

/** Where the auth service under test sends its mail (RunningAuth fits). */
export interface AuthUnderTest {
  baseUrl: string;
  readonly mails: readonly unknown[];
  mailTo(to: string, subject: RegExp, since?: number): Promise<{ text: string }>;
}

/** The token of the confirmation link in an onboarding mail (it rides in the link's fragment). */
export function confirmationTokenIn(mail: { text: string }): string {
  const token = /\/company\/onboarding\/confirm#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error('No confirmation link in the mail');
  return token;
}

/** The token of a mail's set-password link: in the query for a reset (spec §2), in the fragment for an invitation. */
export function passwordLinkTokenIn(text: string): string {
  const token = /\/company\/password\/change[?#]token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error('No set-password link in the mail');
  return token;
}

/** Registers a company through the API (not yet confirmed): its admin's e-mail and its credentials. */
export async function registerCompany(baseUrl: string, domain = `co-${randomUUID().slice(0, 8)}.example`) {
  const { credential, passphrase } = await createCompanyCredentials();
  const email = `admin@${domain}`;
  const response = await fetch(`${baseUrl}/api/account/company`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.1` },
    body: JSON.stringify({
      user_profile: { email, password: adminPassword, full_name: 'Ada Admin' },
      name: 'Globex',
      credential,
      passphrase,
      country: 'DE',
    }),
  });
  if (response.status !== 201) throw new Error(`onboarding failed: ${response.status} ${await response.text()}`);
  const { url_identifier } = (await response.json()) as { url_identifier: string };
  return { email, domain, passphrase, credential, urlIdentifier: url_identifier };
}

/** Follows the confirmation link mailed to `email` (from the `since`-th mail on), as the admin's browser does. */
export async function confirmCompany(auth: AuthUnderTest, email: string, since = 0) {
  const token = confirmationTokenIn(await auth.mailTo(email, /^Confirm your company/, since));
  return staffClient(auth.baseUrl).call('POST', '/api/account/company/confirmation', { body: { token } });
}

/** Onboards a company through the API and confirms its admin's address: an active company. */
export async function onboardCompany(auth: AuthUnderTest) {
  const since = auth.mails.length;
  const registered = await registerCompany(auth.baseUrl);
  const confirmed = await confirmCompany(auth, registered.email, since);
  if (confirmed.status !== 200)
    throw new Error(`confirmation failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  return registered;
}
