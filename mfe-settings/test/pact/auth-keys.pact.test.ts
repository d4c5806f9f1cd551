/**
 * @jest-environment node
 */
import { MatchersV3 } from '@pact-foundation/pact';
import {
  declineCompanyKeyRequest,
  getOwnKeys,
  getTeamKeys,
  postKeyEndorsement,
  removeUnlockMethod,
} from '@whistle/api-client';
import { authPact, PACT_KDF_SALT, api, failure, headers, STATE } from './auth-fixtures';

const { eachLike, like, regex, uuid } = MatchersV3;

/**
 * What the settings' key sections expect of auth (the admin of the state made their keys at onboarding, with their
 * password, and holds the company key). Granting and the recovery kit are the shell keyring's calls, in its pacts;
 * the endorsement the keyring signs for this page is here, refused (a signature the provider's admin made cannot be
 * made in a consumer test).
 */
const pact = authPact();

const getHeaders = { Accept: 'application/json', Authorization: 'Bearer staff-token' };
const PUBLIC_KEY = regex(/^v1\.[A-Za-z0-9_-]{87}$/, `v1.${'A'.repeat(87)}`);
const FINGERPRINT = regex(/^[0-9A-HJKMNP-TV-Z]{4}( [0-9A-HJKMNP-TV-Z]{4}){4}$/, 'K3VQ 8M2X 0000 1111 2222');
const TIMESTAMP = regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '2026-11-27T10:00:00.000Z');
const UNKNOWN_ID = '00000000-0000-4000-8000-00000000dead';

describe('mfe-settings → auth: keys', () => {
  test("when the account page lists the member's unlock methods, then their password's copy is among them", async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving("the member's own keys")
      .withRequest('GET', '/api/account/profile/keys', (request) => request.headers(getHeaders))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          password: { kdf: 'argon2id-v2', salt: PACT_KDF_SALT },
          person: {
            public_key: PUBLIC_KEY,
            signing_public_key: PUBLIC_KEY,
            fingerprint: FINGERPRINT,
            unlock: eachLike({
              id: uuid(),
              method: 'password',
              sealed_private_keys: regex(/^v2\.[A-Za-z0-9_.-]+$/, 'v2.c2VhbGVk.a2V5cw'),
              credential_id: null,
              prf_salt: null,
              kdf: null,
              kdf_salt: null,
              label: null,
              created: TIMESTAMP,
            }),
          },
        }),
      )
      .executeTest(async (server) => {
        const own = await getOwnKeys(api(server.url));
        expect(own.person?.unlock.map((method) => method.method)).toContain('password');
      });
  });

  test('when the security page lists report access, then each person comes with their fingerprint and the company key', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving("the team's keys")
      .withRequest('GET', '/api/account/company/keys/people', (request) => request.headers(getHeaders))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          people: eachLike({
            user_id: uuid(),
            full_name: like('Ada Lovelace'),
            roles: eachLike('ADMIN'),
            public_key: PUBLIC_KEY,
            signing_public_key: PUBLIC_KEY,
            fingerprint: FINGERPRINT,
            company_key: 'granted',
            access_request: null,
            key_id: uuid(),
            endorsed: false,
          }),
        }),
      )
      .executeTest(async (server) => {
        const { people } = await getTeamKeys(api(server.url));
        expect(people[0].company_key).toBe('granted');
        expect(people[0].endorsed).toBe(false);
      });
  });

  test('when an admin confirms a key that is no longer anyone’s current one, then 409 says to reload', async () => {
    const body = {
      key_id: UNKNOWN_ID,
      signing_public_key: `v1.${'A'.repeat(87)}`,
      role: 'HANDLER' as const,
      endorsed_at: '2026-12-07T10:00:00.000Z',
      endorser_key_id: '00000000-0000-4000-8000-00000000beef',
      signature: `v2.${'A'.repeat(86)}`,
    };
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('an endorsement of an unknown key')
      .withRequest('POST', '/api/account/company/keys/endorsements', (request) =>
        request.headers(headers).jsonBody(body),
      )
      .willRespondWith(409, (response) =>
        response.jsonBody({ message: like('Your keys changed since this page loaded: reload it') }),
      )
      .executeTest(async (server) => {
        expect((await failure(postKeyEndorsement(api(server.url), body)))?.status).toBe(409);
      });
  });

  test('when an admin declines a request that is no longer there, then 404 Request not found', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a decline of an unknown access request')
      .withRequest('DELETE', `/api/account/company/keys/requests/${UNKNOWN_ID}`, (request) =>
        request.headers(getHeaders),
      )
      .willRespondWith(404, (response) => response.jsonBody({ message: 'Request not found' }))
      .executeTest(async (server) => {
        expect((await failure(declineCompanyKeyRequest(api(server.url), UNKNOWN_ID)))?.status).toBe(404);
      });
  });

  test('when a member removes an unlock method that is not theirs, then 404 Unlock method not found', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('the removal of an unknown unlock method')
      .withRequest('DELETE', `/api/account/profile/keys/unlock/${UNKNOWN_ID}`, (request) => request.headers(getHeaders))
      .willRespondWith(404, (response) => response.jsonBody({ message: 'Unlock method not found' }))
      .executeTest(async (server) => {
        expect((await failure(removeUnlockMethod(api(server.url), UNKNOWN_ID)))?.status).toBe(404);
      });
  });
});
