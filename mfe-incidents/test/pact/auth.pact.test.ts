/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, listReplyTemplates } from '@whistle/api-client';
import { PACT_DIR } from './fixtures';

const { datetime, eachLike, string, uuid } = MatchersV3;

/**
 * What the case page expects of auth: the company's reply templates for its reply box (issue 23 item 4); verified in
 * services/auth/test/pact. The Bearer is a placeholder the provider swaps for the token its state made.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-auth',
  dir: PACT_DIR,
  logLevel: 'warn',
});
const TEMPLATE_STATE = 'staff member ada@cases.example has a reply template';

describe('mfe-incidents → auth', () => {
  test("when the reply box opens, then the company's templates come with their name and text", async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATE)
      .uponReceiving("the company's reply templates for the reply box")
      .withRequest('GET', '/api/account/company/reply_template/', (request) =>
        request.headers({ Accept: 'application/json', Authorization: 'Bearer staff-token' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody(
          eachLike({
            uuid: uuid('7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e80'),
            name: string('Received'),
            language: string('en'),
            body: string('We have received your report.'),
            updated: datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2026-11-20T09:30:00.000Z'),
          }),
        ),
      )
      .executeTest(async (server) => {
        const api = createApiClient({ baseUrl: server.url, getToken: () => 'staff-token' });
        expect((await listReplyTemplates(api))[0]!.body).toBe('We have received your report.');
      });
  });
});
