/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, inviteMember, listReplyTemplates } from '@whistle/api-client';
import { PACT_DIR } from './fixtures';

const { datetime, eachLike, nullValue, string, uuid } = MatchersV3;

/**
 * What the case and team pages expect of auth: the company's reply templates for the reply box (issue 23 item 4) and
 * an invitation with the new member's mail language (issue #29); verified in services/auth/test/pact. The Bearer is a
 * placeholder the provider swaps for the token its state made.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-auth',
  dir: PACT_DIR,
  logLevel: 'warn',
});
const TEMPLATE_STATE = 'staff member ada@cases.example has a reply template';
const ADMIN_STATE = 'staff member ada@cases.example is the admin of a company';

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

  test('when an admin invites a member with a mail language, then the new member comes back', async () => {
    const member = {
      email: 'nina@cases.example',
      full_name: 'Nina Nowak',
      roles: ['HANDLER' as const],
      language: 'pl' as const,
    };
    await pact
      .addInteraction()
      .given(ADMIN_STATE)
      .uponReceiving('an invitation in Polish')
      .withRequest('POST', '/api/account/company/user_profile/', (request) =>
        request
          .headers({
            Accept: 'application/json',
            'Content-Type': 'application/json',
            Authorization: 'Bearer staff-token',
          })
          .jsonBody(member),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({
          uuid: uuid('7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e81'),
          email: member.email,
          full_name: member.full_name,
          roles: member.roles,
          mfa_auth_factor_id: nullValue(),
        }),
      )
      .executeTest(async (server) => {
        const api = createApiClient({ baseUrl: server.url, getToken: () => 'staff-token' });
        expect((await inviteMember(api, member)).email).toBe(member.email);
      });
  });
});
