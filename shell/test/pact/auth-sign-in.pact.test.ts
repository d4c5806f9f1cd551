/**
 * @jest-environment node
 */
import path from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { deriveStaffSecrets } from '@whistle/crypto';
import { PACT_KDF_SALT, PACT_PASSWORD } from './fixtures';
import {
  answerMfaChallenge,
  createApiClient,
  exchangeSsoCode,
  getOwnCompany,
  getCompanyKeys,
  getOwnKeys,
  getOwnProfile,
  getPasswordSalt,
  login,
  refreshToken,
  requestPasswordReset,
  revokeToken,
  setPasswordWithLink,
  type ApiError,
} from '@whistle/api-client';

const { boolean, eachLike, like, regex, uuid } = MatchersV3;

/**
 * The shell's sign-in and session calls to auth. A consumer name of its own: Pact merges the
 * interactions of one consumer/provider pair into one file only within one process.
 * Bearer tokens are placeholders; the provider test swaps in real ones made by its state handlers.
 */
const pact = new PactV4({
  consumer: 'whistle-shell-sign-in',
  provider: 'whistle-auth',
  dir: path.resolve(__dirname, '../../../pacts'),
  logLevel: 'warn',
});

const ADMIN = 'ada@signin.example';
const MFA_USER = 'grace@signin-mfa.example';
/** What the login page sends for the right password and for a wrong one: derived secrets, never the password. */
let RIGHT: string;
let WRONG: string;
beforeAll(async () => {
  RIGHT = (await deriveStaffSecrets(PACT_PASSWORD, PACT_KDF_SALT)).authSecret;
  WRONG = (await deriveStaffSecrets('wrong password', PACT_KDF_SALT)).authSecret;
});
const STAFF_BEARER = 'Bearer staff-token';
const jsonHeaders = { Accept: 'application/json', 'Content-Type': 'application/json' };
const staffHeaders = { Accept: 'application/json', Authorization: STAFF_BEARER };
const jwt = regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln');
const staffApi = (url: string) => createApiClient({ baseUrl: url, getToken: () => 'staff-token' });
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 0,
    (error: ApiError) => error.status,
  );

/** A new password's secret and keys, as the set-password page sends them (fixed values: the link decides first). */
const LINK_BODY = {
  password: `v2.${'s'.repeat(43)}`,
  kdf: 'argon2id-v2' as const,
  kdf_salt: PACT_KDF_SALT,
  keys: {
    public_key: `v1.${'A'.repeat(87)}`,
    signing_public_key: `v1.${'B'.repeat(87)}`,
    unlock: { method: 'password' as const, sealed_private_keys: 'v2.aaaa.bbbb' },
  },
};

const profileBody = {
  uuid: uuid(),
  email: ADMIN,
  full_name: like('Ada Lovelace'),
  roles: eachLike('ADMIN'),
  mfa_auth_factor_id: null,
};

describe('shell sign-in → auth', () => {
  test('when the password is right, then a token comes back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a login request')
      .withRequest('POST', '/api/account/token', (request) =>
        request.headers(jsonHeaders).jsonBody({ username: ADMIN, password: RIGHT }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ token: jwt }))
      .executeTest(async (server) => {
        const answer = await login(createApiClient({ baseUrl: server.url }), { username: ADMIN, password: RIGHT });
        expect('token' in answer).toBe(true);
      });
  });

  test('when the password is wrong, then 401 Invalid email or password', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a login request with a wrong password')
      .withRequest('POST', '/api/account/token', (request) =>
        request.headers(jsonHeaders).jsonBody({ username: ADMIN, password: WRONG }),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: 'Invalid email or password' }))
      .executeTest(async (server) => {
        expect(
          await statusOf(login(createApiClient({ baseUrl: server.url }), { username: ADMIN, password: WRONG })),
        ).toBe(401);
      });
  });

  test("when the login page asks how to derive, then the account's salt comes back", async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a salt request')
      .withRequest('POST', '/api/account/token/salt', (request) =>
        request.headers(jsonHeaders).jsonBody({ username: ADMIN }),
      )
      .willRespondWith(200, (response) =>
        response.headers({ 'Cache-Control': 'no-store' }).jsonBody({ kdf: 'argon2id-v2', salt: PACT_KDF_SALT }),
      )
      .executeTest(async (server) => {
        expect(await getPasswordSalt(createApiClient({ baseUrl: server.url }), ADMIN)).toEqual({
          kdf: 'argon2id-v2',
          salt: PACT_KDF_SALT,
        });
      });
  });

  test('when the user has MFA, then a challenge comes back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${MFA_USER} with MFA exists`)
      .uponReceiving('a login request of a user with MFA')
      .withRequest('POST', '/api/account/token', (request) =>
        request.headers(jsonHeaders).jsonBody({ username: MFA_USER, password: RIGHT }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ mfa_required: true, challenge_id: like('challenge-id') }))
      .executeTest(async (server) => {
        expect(
          await login(createApiClient({ baseUrl: server.url }), { username: MFA_USER, password: RIGHT }),
        ).toMatchObject({
          mfa_required: true,
        });
      });
  });

  test('when the MFA code is wrong, then 401 (the MFA page marks the box red)', async () => {
    await pact
      .addInteraction()
      .given(`an MFA challenge of ${MFA_USER} is open`)
      .uponReceiving('an MFA challenge answer with a wrong code')
      .withRequest('POST', '/api/account/token/mfa', (request) =>
        request
          .headers({ ...jsonHeaders, Authorization: 'Bearer mfa-challenge' })
          .jsonBody({ challenge_code: '000000' }),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: like('Invalid code') }))
      .executeTest(async (server) => {
        expect(
          await statusOf(answerMfaChallenge(createApiClient({ baseUrl: server.url }), 'mfa-challenge', '000000')),
        ).toBe(401);
      });
  });

  test('when the guard loads the profile, then it comes back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('an own profile request')
      .withRequest('GET', '/api/account/company/profile/', (request) => request.headers(staffHeaders))
      .willRespondWith(200, (response) => response.jsonBody(profileBody))
      .executeTest(async (server) => {
        expect((await getOwnProfile(staffApi(server.url))).email).toBe(ADMIN);
      });
  });

  test('when the guard loads the company, then it comes back with its url_identifier', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('an own company request')
      .withRequest('GET', '/api/account/company/', (request) => request.headers(staffHeaders))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          uuid: uuid(),
          name: like('Acme Corporation'),
          country: like('FR'),
          url_identifier: regex(/^[a-z0-9-]+$/, 'acme-corporation-k7m2qa'),
          mfa_required: boolean(false),
          sso_enabled: boolean(false),
          user_profiles: eachLike(profileBody),
        }),
      )
      .executeTest(async (server) => {
        expect((await getOwnCompany(staffApi(server.url))).url_identifier).toBe('acme-corporation-k7m2qa');
      });
  });

  test("when the staff browser opens the person's keys, then their public keys and sealed copies come back, uncached", async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('an own keys request')
      .withRequest('GET', '/api/account/profile/keys', (request) => request.headers(staffHeaders))
      .willRespondWith(200, (response) =>
        response.headers({ 'Cache-Control': 'no-store' }).jsonBody({
          password: { kdf: 'argon2id-v2', salt: PACT_KDF_SALT },
          person: {
            public_key: regex(/^v1\.[A-Za-z0-9_-]{87}$/, `v1.${'A'.repeat(87)}`),
            signing_public_key: regex(/^v1\.[A-Za-z0-9_-]{87}$/, `v1.${'B'.repeat(87)}`),
            fingerprint: regex(/^[0-9A-Z]{4}( [0-9A-Z]{4}){4}$/, 'K3VQ 8M2X 7PQR 2HJD 9W4T'),
            unlock: eachLike({
              id: uuid(),
              method: 'password',
              sealed_private_keys: regex(/^v2\.[A-Za-z0-9_.-]+$/, 'v2.aaaa.bbbb'),
              credential_id: null,
              prf_salt: null,
              kdf: null,
              kdf_salt: null,
              label: null,
              created: like('2026-11-27T10:00:00.000Z'),
            }),
          },
        }),
      )
      .executeTest(async (server) => {
        expect((await getOwnKeys(staffApi(server.url))).person?.unlock[0]?.method).toBe('password');
      });
  });

  test("when an admin browser opens the company key, then the admin's grant and the kit's copy come back, uncached", async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a company keys request')
      .withRequest('GET', '/api/account/company/keys', (request) => request.headers(staffHeaders))
      .willRespondWith(200, (response) =>
        response.headers({ 'Cache-Control': 'no-store' }).jsonBody({
          key_version: 1,
          public_key: regex(/^v1\.[A-Za-z0-9_-]{87}$/, `v1.${'C'.repeat(87)}`),
          grant: regex(/^v2\.[A-Za-z0-9_.-]+$/, 'v2.e.i.c'),
          recovery: { aes_encrypted_private_key: regex(/^v2\.[A-Za-z0-9_.-]+$/, 'v2.s.i.c') },
          legacy: null,
          access_request: null,
        }),
      )
      .executeTest(async (server) => {
        expect((await getCompanyKeys(staffApi(server.url))).grant).toMatch(/^v2\./);
      });
  });

  test('when the token is renewed, then a new one comes back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a token refresh request')
      .withRequest('POST', '/api/account/token/refresh', (request) => request.headers(staffHeaders))
      .willRespondWith(200, (response) => response.jsonBody({ token: jwt }))
      .executeTest(async (server) => {
        expect(await refreshToken(staffApi(server.url))).toHaveProperty('token');
      });
  });

  test('when logging out, then the token is revoked with 204', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a token revoke request')
      .withRequest('POST', '/api/account/token/revoke', (request) => request.headers(staffHeaders))
      .willRespondWith(204)
      .executeTest(async (server) => {
        await expect(revokeToken(staffApi(server.url))).resolves.toBeUndefined();
      });
  });

  test('when a reset is asked for any address, then 204', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a password reset request')
      .withRequest('PUT', '/api/account/profile/password/reset', (request) =>
        request.headers({ Accept: 'application/json', Authorization: 'Bearer nobody@unknown.example' }),
      )
      .willRespondWith(204)
      .executeTest(async (server) => {
        await expect(
          requestPasswordReset(createApiClient({ baseUrl: server.url }), 'nobody@unknown.example'),
        ).resolves.toBeUndefined();
      });
  });

  test('when a password link is used up or unknown, then 401 (the page says Failed to reset password)', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a password set with an unknown link token')
      .withRequest('PUT', '/api/account/profile', (request) =>
        request.headers({ ...jsonHeaders, Authorization: 'Bearer unknown-link-token' }).jsonBody(LINK_BODY),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: like('Invalid or expired link') }))
      .executeTest(async (server) => {
        expect(
          await statusOf(
            setPasswordWithLink(createApiClient({ baseUrl: server.url }), 'unknown-link-token', LINK_BODY),
          ),
        ).toBe(401);
      });
  });

  test('when an SSO code is unknown, then 401 (the SSO page says single sign-on failed)', async () => {
    await pact
      .addInteraction()
      .uponReceiving('an SSO token request with an unknown code')
      .withRequest('POST', '/api/account/company/sso/token', (request) =>
        request.headers(jsonHeaders).jsonBody({ code: 'unknown-code' }),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: like('Invalid or expired code') }))
      .executeTest(async (server) => {
        expect(await statusOf(exchangeSsoCode(createApiClient({ baseUrl: server.url }), 'unknown-code'))).toBe(401);
      });
  });
});
