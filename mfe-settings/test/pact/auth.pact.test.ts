/**
 * @jest-environment node
 */
import { MatchersV3 } from '@pact-foundation/pact';
import {
  changePassword,
  confirmMfaSetup,
  getMailPreferences,
  setMailPreferences,
  startMfaSetup,
  updateFullName,
} from '@whistle/api-client';
import { STAFF_LANGUAGE_CODES } from '@whistle/contracts';
import { deriveStaffSecrets } from '@whistle/crypto';
import { authPact, ADMIN, PACT_KDF_SALT, PASSWORD, headers, api, jwt, profile, failure, STATE } from './auth-fixtures';

const { boolean, eachLike, like, regex } = MatchersV3;

/** What account settings expect of auth. */
const pact = authPact();

/**
 * A password change as the keyring sends it: secrets derived from both passwords (never the passwords), the new
 * password's salt, and the keys' password copy sealed again. The new values are the browser's own random ones.
 */
const AUTH_SECRET = /^v2\.[A-Za-z0-9_-]{43}$/;
const KDF_SALT = /^[A-Za-z0-9_-]{22}$/;
const SEALED = /^v2\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const NEW_PASSWORD = {
  password: `v2.${'n'.repeat(43)}`,
  kdf: 'argon2id-v2' as const,
  kdf_salt: 'bmV3LXBhc3N3b3JkLXNhbA',
  sealed_private_keys: 'v2.c2VhbGVk.a2V5cw',
};
let currentSecret: string;
let wrongSecret: string;
beforeAll(async () => {
  currentSecret = (await deriveStaffSecrets(PASSWORD, PACT_KDF_SALT)).authSecret;
  wrongSecret = (await deriveStaffSecrets('not my password', PACT_KDF_SALT)).authSecret;
});

describe('mfe-settings → auth: account', () => {
  test('when the full name is saved, then the updated profile comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a full name update')
      .withRequest('PUT', '/api/account/profile', (request) =>
        request.headers(headers).jsonBody({ full_name: 'Ada King' }),
      )
      .willRespondWith(200, (response) => response.jsonBody(profile('Ada King')))
      .executeTest(async (server) => {
        expect((await updateFullName(api(server.url), 'Ada King')).full_name).toBe('Ada King');
      });
  });

  test("when the account page loads the member's mail preferences, then their language (a staff one) and four switches come back", async () => {
    const getHeaders = { Accept: 'application/json', Authorization: 'Bearer staff-token' };
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving("the member's mail preferences")
      .withRequest('GET', '/api/account/profile/notifications', (request) => request.headers(getHeaders))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          language: regex(new RegExp(`^(${STAFF_LANGUAGE_CODES.join('|')})$`), 'en'),
          notifications: {
            new_incidents: boolean(true),
            assigned_to_an_incident: boolean(true),
            incident_updates: boolean(true),
            deadlines: boolean(true),
          },
        }),
      )
      .executeTest(async (server) => {
        expect(Object.keys((await getMailPreferences(api(server.url))).notifications)).toHaveLength(4);
      });
  });

  test('when the member saves their mail preferences in a staff language beyond English and French, then what was kept comes back', async () => {
    const wanted = {
      language: 'pl' as const,
      notifications: { new_incidents: false, assigned_to_an_incident: true, incident_updates: true, deadlines: false },
    };
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a mail preferences update')
      .withRequest('PUT', '/api/account/profile/notifications', (request) => request.headers(headers).jsonBody(wanted))
      .willRespondWith(200, (response) => response.jsonBody(wanted))
      .executeTest(async (server) => {
        expect(await setMailPreferences(api(server.url), wanted)).toEqual(wanted);
      });
  });

  test('when the password is changed with the right current one, then a new token replaces the session', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a password change')
      .withRequest('PUT', '/api/account/profile', (request) =>
        request.headers(headers).jsonBody({
          password: regex(AUTH_SECRET, NEW_PASSWORD.password),
          kdf: NEW_PASSWORD.kdf,
          kdf_salt: regex(KDF_SALT, NEW_PASSWORD.kdf_salt),
          // The provider checks it against the state's password: the exact secret derived from it.
          current_password: currentSecret,
          sealed_private_keys: regex(SEALED, NEW_PASSWORD.sealed_private_keys),
        }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({ ...profile('Ada Lovelace'), full_name: like('Ada Lovelace'), token: jwt }),
      )
      .executeTest(async (server) => {
        const body = { ...NEW_PASSWORD, current_password: currentSecret };
        expect(await changePassword(api(server.url), body)).toHaveProperty('token');
      });
  });

  test('when the current password is wrong, then a field error comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a password change with a wrong current password')
      .withRequest('PUT', '/api/account/profile', (request) =>
        request.headers(headers).jsonBody({
          password: regex(AUTH_SECRET, NEW_PASSWORD.password),
          kdf: NEW_PASSWORD.kdf,
          kdf_salt: regex(KDF_SALT, NEW_PASSWORD.kdf_salt),
          current_password: wrongSecret,
          sealed_private_keys: regex(SEALED, NEW_PASSWORD.sealed_private_keys),
        }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Bad Request'),
          errors: { current_password: eachLike('The current password is wrong') },
        }),
      )
      .executeTest(async (server) => {
        const body = { ...NEW_PASSWORD, current_password: wrongSecret };
        const error = await failure(changePassword(api(server.url), body));
        expect(error?.status).toBe(400);
      });
  });

  test('when MFA set-up starts, then a QR code and its secret come back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('an MFA set-up start')
      .withRequest('POST', '/api/account/company/profile/mfa', (request) =>
        request.headers({ Accept: 'application/json', Authorization: 'Bearer staff-token' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          qr_code: regex('^data:image/png;base64,[A-Za-z0-9+/=]+$', 'data:image/png;base64,iVBORw0KGgo='),
          secret: regex(/^[A-Z2-7]+=*$/, 'JBSWY3DPEHPK3PXP'),
        }),
      )
      .executeTest(async (server) => {
        expect((await startMfaSetup(api(server.url))).qr_code).toMatch(/^data:image\/png/);
      });
  });

  test('when the MFA set-up code is wrong, then a field error comes back (the dialog keeps its QR code)', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} has a pending MFA factor`)
      .uponReceiving('an MFA set-up confirmation with a wrong code')
      .withRequest('POST', '/api/account/company/profile/mfa', (request) =>
        request.headers(headers).jsonBody({ challenge_code: '000000' }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({ message: like('Bad Request'), errors: { challenge_code: eachLike('Invalid code') } }),
      )
      .executeTest(async (server) => {
        const error = await failure(confirmMfaSetup(api(server.url), '000000'));
        expect(error?.status).toBe(400);
      });
  });
});
