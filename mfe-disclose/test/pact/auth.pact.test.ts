/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, getCompanyPublicView } from '@whistle/api-client';
import { PACT_CATEGORY, PACT_COMPANY, PACT_DIR, PACT_LOCATION, PACT_SUB_CATEGORY } from './fixtures';

const { like, regex } = MatchersV3;

/** What the discloser pages expect of the auth service; verified in services/auth/test/pact. */
const pact = new PactV4({
  consumer: 'whistle-mfe-disclose',
  provider: 'whistle-auth',
  dir: PACT_DIR,
  logLevel: 'warn',
});

test('when the create page loads, then the company view brings its public key, categories with sub-categories and locations', async () => {
  await pact
    .addInteraction()
    .given(`a company with url_identifier ${PACT_COMPANY}, a category with a sub-category and a location exists`)
    .uponReceiving('a discloser view request from the report form')
    .withRequest('GET', `/api/account/company/${PACT_COMPANY}`, (request) =>
      request.headers({ Accept: 'application/json' }),
    )
    .willRespondWith(200, (response) =>
      response.jsonBody({
        url_identifier: PACT_COMPANY,
        name: like('Acme Corporation'),
        logo: null,
        title: null,
        description: null,
        public_key: regex(/^v1\.[A-Za-z0-9_-]+$/, 'v1.BASE64URL'),
        categories: [
          { uuid: PACT_CATEGORY, name: like('Fraud and corruption'), parent_uuid: null },
          { uuid: PACT_SUB_CATEGORY, name: like('Bribery'), parent_uuid: PACT_CATEGORY },
        ],
        locations: [{ uuid: PACT_LOCATION, name: like('Head office') }],
      }),
    )
    .executeTest(async (server) => {
      const view = await getCompanyPublicView(createApiClient({ baseUrl: server.url }), PACT_COMPANY);
      expect(view.public_key).toMatch(/^v1\./);
      expect(view.categories[1].parent_uuid).toBe(view.categories[0].uuid);
    });
});
