import { randomUUID } from 'node:crypto';
import { createCompanyCredentials } from '@whistle/crypto';

/** Requests as the browser makes them; each test names its client address, as an ingress would forward it. */
export function staffClient(
  baseUrl: string,
  clientAddress = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
) {
  const call = async (
    method: string,
    path: string,
    { body, bearer, form }: { body?: unknown; bearer?: string; form?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': clientAddress };
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

/** Onboards a company through the API; its admin's e-mail and the passphrase that unlocks its key. */
export async function onboardCompany(baseUrl: string) {
  const { credential, passphrase } = await createCompanyCredentials();
  const domain = `co-${randomUUID().slice(0, 8)}.example`;
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
  return { email, domain, passphrase, credential };
}
