import { companyCreateRequestSchema } from './company';
import { countries } from '../countries/countries';

const valid = {
  user_profile: { email: '  Ada@Acme.example ', password: 'a long enough password', full_name: '  Ada Lovelace ' },
  name: ' Acme ',
  credential: { aes_encrypted_private_key: 'v1.c2FsdA.aXY.Y3Q', public_key: 'v1.cG9pbnQ' },
  passphrase: 'a'.repeat(43),
  country: 'FR',
};

describe('company create request', () => {
  test('when values carry spaces, then they are trimmed', () => {
    const parsed = companyCreateRequestSchema.parse(valid);
    expect(parsed.name).toBe('Acme');
    expect(parsed.user_profile.full_name).toBe('Ada Lovelace');
    expect(parsed.user_profile.email).toBe('Ada@Acme.example');
  });

  test('when fields are blank, malformed or unknown, then each is named with the spec message', () => {
    const result = companyCreateRequestSchema.safeParse({
      ...valid,
      name: '   ',
      country: 'XX',
      extra: true,
      user_profile: { ...valid.user_profile, email: 'nope' },
    });
    expect(result.success).toBe(false);
    const issues = Object.fromEntries(
      result.error!.issues.map((issue) => [issue.path.join('.') || issue.code, issue.message]),
    );
    expect(issues).toMatchObject({
      name: 'This field is required',
      country: 'Unknown country',
      'user_profile.email': 'Invalid email address',
    });
    expect(issues.unrecognized_keys).toBeDefined();
  });

  test('when a credential is not a versioned ciphertext, then it is refused', () => {
    const result = companyCreateRequestSchema.safeParse({
      ...valid,
      credential: { ...valid.credential, public_key: '-----BEGIN PUBLIC KEY-----' },
    });
    expect(result.success).toBe(false);
  });
});

test('when the country list is read, then it has about 240 entries with unique codes and dial codes', () => {
  expect(countries.length).toBeGreaterThanOrEqual(240);
  expect(new Set(countries.map((country) => country.code)).size).toBe(countries.length);
  expect(countries.every((country) => /^\+\d+$/.test(country.dialCode))).toBe(true);
});
