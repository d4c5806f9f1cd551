/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  completeRewrap,
  createApiClient,
  getRewrapPage,
  isApiError,
  putRewrapped,
  type ApiError,
} from '@whistle/api-client';
import { rewrapPageSchema } from '@whistle/contracts';
import { PACT_DIR } from './audit-fixtures';
import { EXAMPLE_CASE_UUID, EXAMPLE_STAFF_TOKEN, ROTATION_DONE_STATE, ROTATION_STATE } from './retention-fixtures';

const { eachLike, fromProviderState, integer, like, regex, uuid } = MatchersV3;

/**
 * What the security page's company key rotation expects of the incident service (its wrappings of the cases);
 * verified in services/incident/test/pact. Starting the rotation is the shell keyring's call to auth.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-settings',
  provider: 'whistle-incident',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const bearer = { Authorization: fromProviderState('Bearer ${staffToken}', `Bearer ${EXAMPLE_STAFF_TOKEN}`) };
const api = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_STAFF_TOKEN });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: ApiError) => error,
  );
const VERSIONED = regex(/^v1\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'v1.ZXBo.aXY.Y3Q');
// A case's sealed private key: `v1.` before case team secrets, `v2.` since (docs/security.md).
const SEALED_KEY = regex(/^v[12]\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'v2.c2VhbGVk');
const WRAPPING = 'v1.ZXBoZW1lcmFs.aXZpdml2aXZpdg.Y2lwaGVydGV4dA';

describe('mfe-settings → incident: company key rotation', () => {
  test('when the rotation asks for the cases still under the old key, then a page of them comes with what it takes to re-wrap each', async () => {
    await pact
      .addInteraction()
      .given(ROTATION_STATE)
      .uponReceiving('a page of cases to re-wrap, asked by an admin')
      .withRequest('GET', '/api/incident/company-key/rewrap', (request) =>
        request.query({ key_version: '2', limit: '200' }).headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(200, (response) =>
        response.headers({ 'Cache-Control': 'no-store' }).jsonBody({
          key_version: 2,
          previous_key_version: 1,
          remaining: integer(1),
          cases: eachLike({
            uuid: uuid(EXAMPLE_CASE_UUID),
            credential: { public_key: VERSIONED, aes_encrypted_private_key: SEALED_KEY },
            aes_salt: like('c2FsdHNhbHRzYWx0c2FsdA'),
            aes_iv: like('aXZpdml2aXZpdml2'),
            company_encrypted_passphrase: VERSIONED,
            company_key_version: null,
          }),
          next_after: null,
        }),
      )
      .executeTest(async (server) => {
        const page = rewrapPageSchema.parse(await getRewrapPage(api(server.url), { key_version: 2, limit: 200 }));
        expect(page.cases[0]?.uuid).toBe(EXAMPLE_CASE_UUID);
      });
  });

  test('when the rotation stores a batch it re-wrapped, then the count stored and left comes back', async () => {
    await pact
      .addInteraction()
      .given(ROTATION_STATE)
      .uponReceiving('a batch of re-wrapped passphrases stored by an admin')
      .withRequest('PUT', '/api/incident/company-key/rewrap', (request) =>
        request.headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer }).jsonBody({
          key_version: 2,
          wrappings: [
            {
              uuid: fromProviderState('${caseUuid}', EXAMPLE_CASE_UUID),
              company_encrypted_passphrase: WRAPPING,
            },
          ],
        }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ stored: 1, remaining: 0 }))
      .executeTest(async (server) => {
        const result = await putRewrapped(api(server.url), {
          key_version: 2,
          wrappings: [{ uuid: EXAMPLE_CASE_UUID, company_encrypted_passphrase: WRAPPING }],
        });
        expect(result).toEqual({ stored: 1, remaining: 0 });
      });
  });

  test('when a batch names a stale key version, then 409 says the key changed', async () => {
    await pact
      .addInteraction()
      .given(ROTATION_STATE)
      .uponReceiving('a batch for a stale company key version')
      .withRequest('PUT', '/api/incident/company-key/rewrap', (request) =>
        request.headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer }).jsonBody({
          key_version: 1,
          wrappings: [
            {
              uuid: fromProviderState('${caseUuid}', EXAMPLE_CASE_UUID),
              company_encrypted_passphrase: WRAPPING,
            },
          ],
        }),
      )
      .willRespondWith(409, (response) =>
        response.jsonBody({ message: 'The company key changed since this page loaded: reload the page' }),
      )
      .executeTest(async (server) => {
        const error = await failure(
          putRewrapped(api(server.url), {
            key_version: 1,
            wrappings: [{ uuid: EXAMPLE_CASE_UUID, company_encrypted_passphrase: WRAPPING }],
          }),
        );
        expect(isApiError(error) && error.status).toBe(409);
      });
  });

  test('when completing while a case is left, then 409 says how many', async () => {
    await pact
      .addInteraction()
      .given(ROTATION_STATE)
      .uponReceiving('a completion asked with a case left')
      .withRequest('POST', '/api/incident/company-key/rewrap/complete', (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ key_version: 2 }),
      )
      .willRespondWith(409, (response) =>
        response.jsonBody({ message: like('Not every case is re-wrapped yet: 1 left'), remaining: 1 }),
      )
      .executeTest(async (server) => {
        const error = await failure(completeRewrap(api(server.url), 2));
        expect(isApiError(error) && error.status).toBe(409);
      });
  });

  test('when completing with every case re-wrapped, then it is accepted', async () => {
    await pact
      .addInteraction()
      .given(ROTATION_DONE_STATE)
      .uponReceiving('a completion asked with every case re-wrapped')
      .withRequest('POST', '/api/incident/company-key/rewrap/complete', (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ key_version: 2 }),
      )
      .willRespondWith(202, (response) => response.jsonBody({ remaining: 0 }))
      .executeTest(async (server) => {
        expect(await completeRewrap(api(server.url), 2)).toEqual({ remaining: 0 });
      });
  });
});
