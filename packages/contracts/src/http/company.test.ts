import { companyCreateRequestSchema } from './company';
import { countries } from '../countries/countries';

const point = `v1.B${'A'.repeat(86)}`;
/** What the onboarding page posts: derived secret, salt, the admin's keys and grant, the kit's copy. */
const valid = {
  user_profile: {
    email: '  Ada@Acme.example ',
    password: `v2.${'s'.repeat(43)}`,
    full_name: '  Ada Lovelace ',
    kdf_salt: 'c2FsdCBvZiB0aGlzIHVzZQ',
    keys: {
      public_key: point,
      signing_public_key: point,
      unlock: { method: 'password', sealed_private_keys: 'v2.aXY.Y3Q' },
    },
  },
  name: ' Acme ',
  credential: { aes_encrypted_private_key: 'v2.c2FsdA.aXY.Y3Q', public_key: point },
  passphrase: 'v2.ZXBr.aXY.Y3Q',
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

  test('when a page from before sends the password itself, then it is told to reload', () => {
    const result = companyCreateRequestSchema.safeParse({
      ...valid,
      user_profile: { ...valid.user_profile, password: 'a long enough password' },
    });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['user_profile', 'password'],
      message: 'This page is out of date: reload it and try again',
    });
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
