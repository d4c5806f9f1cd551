import { randomBytes, randomUUID } from 'node:crypto';
import { newPasswordCredentials, onboardingPayload, passwordChangeBody, signInBody } from '@whistle/test-support';

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
    /** The login page: the salt, then the secret derived from the password (never the password). */
    login: async (username: string, password: string) =>
      call('POST', '/api/account/token', { body: await signInBody(call, username, password) }),
    /**
     * A wrong password as the server sees it: a well-formed secret that is nobody's. Without the derivation, which a
     * test sending dozens of guesses need not pay for (a guesser need not either).
     */
    wrongLogin: (username: string) =>
      call('POST', '/api/account/token', {
        body: { username, password: `v2.${randomBytes(32).toString('base64url')}` },
      }),
    /** The set-password page of an invitation or reset link: the new password's secret and a new key pair. */
    acceptLink: async (linkToken: string, password: string) =>
      call('PUT', '/api/account/profile', { bearer: linkToken, body: (await newPasswordCredentials(password)).body }),
    /** The account page's password change: both secrets derived, the keys sealed again under the new password. */
    changePassword: async (token: string, current: string, next: string) =>
      call('PUT', '/api/account/profile', {
        bearer: token,
        body: await passwordChangeBody(call, token, current, next),
      }),
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

/**
 * Registers a company through the API as the onboarding page does (not yet confirmed): its admin's e-mail, keys and
 * recovery kit.
 */
export async function registerCompany(
  baseUrl: string,
  domain = `co-${randomUUID().slice(0, 8)}.example`,
  /** The onboarding page's language, as it sends it (none: as a client of the spec). */
  language?: string,
) {
  const email = `admin@${domain}`;
  const onboarding = await onboardingPayload({ email, password: adminPassword, name: 'Globex', country: 'DE' });
  if (language) Object.assign(onboarding.payload.user_profile, { language });
  const response = await fetch(`${baseUrl}/api/account/company`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
    body: JSON.stringify(onboarding.payload),
  });
  if (response.status !== 201) throw new Error(`onboarding failed: ${response.status} ${await response.text()}`);
  const { url_identifier } = (await response.json()) as { url_identifier: string };
  return { email, domain, ...onboarding, urlIdentifier: url_identifier };
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

export const memberPassword = 'member password 5678';

/** An onboarded company with its admin signed in: `admin` calls the API with the admin's token. */
export async function signedInAdmin(auth: AuthUnderTest) {
  const onboarded = await onboardCompany(auth);
  const client = staffClient(auth.baseUrl);
  const adminToken = (await client.login(onboarded.email, adminPassword)).body.token as string;
  const admin = (method: string, path: string, body?: unknown) =>
    client.call(method, path, { bearer: adminToken, body });
  return { ...onboarded, client, adminToken, admin };
}

/**
 * A member invited by the company's admin, as the team page and the invitation mail do: the invitation (201), the
 * password set through its link (204), then signed in.
 */
export async function invitedMember(
  auth: AuthUnderTest,
  company: Awaited<ReturnType<typeof signedInAdmin>>,
  { roles, name = 'Member', password = memberPassword }: { roles: string[]; name?: string; password?: string },
) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 6)}@${company.domain}`;
  const since = auth.mails.length;
  const invited = await company.admin('POST', '/api/account/company/user_profile/', {
    email,
    full_name: `${name} ${roles[0]}`,
    roles,
  });
  if (invited.status !== 201) throw new Error(`invitation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const mail = await auth.mailTo(email, /^You have been invited/, since);
  const accepted = await company.client.acceptLink(passwordLinkTokenIn(mail.text), password);
  if (accepted.status !== 204) throw new Error(`set-password failed: ${accepted.status}`);
  const token = (await company.client.login(email, password)).body.token as string;
  return { email, userId: invited.body.uuid as string, token };
}
