/**
 * @jest-environment node
 */
import path from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  answerMfaChallenge,
  createApiClient,
  exchangeSsoCode,
  getOwnCompany,
  getOwnProfile,
  getStaffKeys,
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
const PASSWORD = 'correct horse battery staple';
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
        request.headers(jsonHeaders).jsonBody({ username: ADMIN, password: PASSWORD }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ token: jwt }))
      .executeTest(async (server) => {
        const answer = await login(createApiClient({ baseUrl: server.url }), ADMIN, PASSWORD);
        expect('token' in answer).toBe(true);
      });
  });

  test('when the password is wrong, then 401 Invalid email or password', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a login request with a wrong password')
      .withRequest('POST', '/api/account/token', (request) =>
        request.headers(jsonHeaders).jsonBody({ username: ADMIN, password: 'wrong password' }),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: 'Invalid email or password' }))
      .executeTest(async (server) => {
        expect(await statusOf(login(createApiClient({ baseUrl: server.url }), ADMIN, 'wrong password'))).toBe(401);
      });
  });

  test('when the user has MFA, then a challenge comes back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${MFA_USER} with MFA exists`)
      .uponReceiving('a login request of a user with MFA')
      .withRequest('POST', '/api/account/token', (request) =>
        request.headers(jsonHeaders).jsonBody({ username: MFA_USER, password: PASSWORD }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ mfa_required: true, challenge_id: like('challenge-id') }))
      .executeTest(async (server) => {
        expect(await login(createApiClient({ baseUrl: server.url }), MFA_USER, PASSWORD)).toMatchObject({
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

  test('when the staff browser unlocks the company key, then the encrypted key and passphrase come back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a staff keys request')
      .withRequest('GET', '/api/account/company/profile/keys', (request) => request.headers(staffHeaders))
      .willRespondWith(200, (response) =>
        response.headers({ 'Cache-Control': 'no-store' }).jsonBody({
          aes_encrypted_private_key: regex(/^v1\.[A-Za-z0-9_.-]+$/, 'v1.a.b.c'),
          passphrase: like('p'.repeat(43)),
        }),
      )
      .executeTest(async (server) => {
        expect(await getStaffKeys(staffApi(server.url))).toHaveProperty('passphrase');
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
        request
          .headers({ ...jsonHeaders, Authorization: 'Bearer unknown-link-token' })
          .jsonBody({ password: 'a brand new passphrase' }),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: like('Invalid or expired link') }))
      .executeTest(async (server) => {
        expect(
          await statusOf(
            setPasswordWithLink(
              createApiClient({ baseUrl: server.url }),
              'unknown-link-token',
              'a brand new passphrase',
            ),
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
