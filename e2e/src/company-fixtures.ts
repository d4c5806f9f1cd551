import { randomBytes } from 'node:crypto';
import { createCompanyCredentials } from '@whistle/crypto';
import type { CompanyCreateRequest } from '@whistle/contracts';

/** A company e-mail domain no other test uses: onboarding allows one company per domain. */
export function uniqueDomain(): string {
  return `acme-${randomBytes(5).toString('hex')}.example`;
}

/** A valid onboarding payload, with credentials made the way the admin's browser makes them. */
export async function companyPayload(overrides: Partial<CompanyCreateRequest> = {}): Promise<CompanyCreateRequest> {
  const { credential, passphrase } = await createCompanyCredentials();
  return {
    user_profile: {
      email: `ada@${uniqueDomain()}`,
      password: 'correct horse battery staple',
      full_name: 'Ada Lovelace',
    },
    name: 'Acme Corporation',
    credential,
    passphrase,
    country: 'FR',
    ...overrides,
  };
}

export async function postJson(baseUrl: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
