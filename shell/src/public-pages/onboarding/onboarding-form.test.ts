import { webcrypto } from 'node:crypto';
import { companyCreateRequestSchema } from '@whistle/contracts';
import { onboardingKeys } from '../keys/password-keys';
import { companyCreateRequest, type OnboardingValues } from './onboarding-form';

const values: OnboardingValues = {
  email: 'ada@acme.example',
  full_name: 'Ada Lovelace',
  company_name: 'Acme',
  password: 'correct horse battery',
  repeat_password: 'correct horse battery',
  country: 'FR',
};
let keys: Awaited<ReturnType<typeof onboardingKeys>>;
beforeAll(async () => {
  // jsdom has no WebCrypto: the browser's, as Node provides it.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  keys = await onboardingKeys(values.password);
}, 30_000);

describe('company create request', () => {
  it('when the page is in a staff language, then it is the admin’s language, and auth’s contract takes the request', () => {
    const request = companyCreateRequest(values, keys, 'pl');
    expect(request.user_profile).toMatchObject({
      email: 'ada@acme.example',
      full_name: 'Ada Lovelace',
      language: 'pl',
    });
    expect(request).toMatchObject({ name: 'Acme', country: 'FR', passphrase: keys.passphrase });
    expect(companyCreateRequestSchema.safeParse(request).success).toBe(true);
    expect(JSON.stringify(request)).not.toContain(values.password);
  });

  it('when the page is in a language the staff mails are not written in, then no language is sent', () => {
    const request = companyCreateRequest(values, keys, 'ar');
    expect(request.user_profile).not.toHaveProperty('language');
    expect(companyCreateRequestSchema.safeParse(request).success).toBe(true);
  });
});
