/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  createApiClient,
  getRetentionPolicy,
  isApiError,
  listCases,
  setRetentionPolicy,
  type ApiError,
} from '@whistle/api-client';
import { retentionPolicySchema } from '@whistle/contracts';
import { PACT_DIR } from './audit-fixtures';
import { EXAMPLE_STAFF_TOKEN, RETENTION_ADMIN_STATE, RETENTION_REVIEWER_STATE } from './retention-fixtures';

const { eachLike, fromProviderState, integer, like } = MatchersV3;

/**
 * What the data retention page expects of the incident service; verified in services/incident/test/pact,
 * whose states announce the company and its staff through the bus and answer `staffToken`.
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

describe('mfe-settings → incident', () => {
  test('when an admin opens the data retention page, then the policy in force comes back with the warning days', async () => {
    await pact
      .addInteraction()
      .given(RETENTION_ADMIN_STATE)
      .uponReceiving('the retention policy asked by an admin')
      .withRequest('GET', '/api/incident/retention', (request) =>
        request.headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ retention_months: 12, warning_days: integer(14) }))
      .executeTest(async (server) => {
        expect(retentionPolicySchema.parse(await getRetentionPolicy(api(server.url))).retention_months).toBe(12);
      });
  });

  test('when an admin saves a new period, then the policy in force comes back', async () => {
    await pact
      .addInteraction()
      .given(RETENTION_ADMIN_STATE)
      .uponReceiving('a new retention period saved by an admin')
      .withRequest('PUT', '/api/incident/retention', (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ retention_months: 24 }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ retention_months: 24, warning_days: integer(14) }))
      .executeTest(async (server) => {
        expect((await setRetentionPolicy(api(server.url), { retention_months: 24 })).retention_months).toBe(24);
      });
  });

  test('when the period is out of bounds, then the field error comes back for the page to show by the field', async () => {
    await pact
      .addInteraction()
      .given(RETENTION_ADMIN_STATE)
      .uponReceiving('a retention period of 0 months')
      .withRequest('PUT', '/api/incident/retention', (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ retention_months: 0 }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Invalid request body'),
          errors: { retention_months: eachLike('Ensure this value is greater than or equal to 1') },
        }),
      )
      .executeTest(async (server) => {
        const error = await failure(setRetentionPolicy(api(server.url), { retention_months: 0 }));
        expect(error?.status).toBe(400);
        expect(error?.body).toMatchObject({ errors: { retention_months: [expect.any(String)] } });
      });
  });

  test('when the audit log asks the case list for the numbers of its cases by id, then the list answers for those it may see', async () => {
    // A case the admin may not see (or one deleted since) finds nothing, like an unknown id: the log keeps its id.
    const unknown = '00000000-0000-4000-8000-0000000000d1';
    await pact
      .addInteraction()
      .given(RETENTION_ADMIN_STATE)
      .uponReceiving('the cases of an audit log page asked by id')
      .withRequest('GET', '/api/incident/', (request) =>
        request.query({ incident: unknown, page_size: '1' }).headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({ count: 0, count_capped: false, page: 1, page_size: 1, results: [] }),
      )
      .executeTest(async (server) => {
        const page = await listCases(api(server.url), { incident: [unknown], page_size: '1' });
        expect(page.results).toEqual([]);
      });
  });

  test('when a reviewer asks for the policy, then 403', async () => {
    await pact
      .addInteraction()
      .given(RETENTION_REVIEWER_STATE)
      .uponReceiving('the retention policy asked by a reviewer')
      .withRequest('GET', '/api/incident/retention', (request) =>
        request.headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(403, (response) => response.jsonBody({ message: like('The retention policy is for admins') }))
      .executeTest(async (server) => {
        const error = await failure(getRetentionPolicy(api(server.url)));
        expect(isApiError(error) && error.status).toBe(403);
      });
  });
});
