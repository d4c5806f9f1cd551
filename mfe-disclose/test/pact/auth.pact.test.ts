/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, getCompanyPublicView } from '@whistle/api-client';
import { PACT_CATEGORY, PACT_COMPANY, PACT_DIR, PACT_LOCATION, PACT_SUB_CATEGORY } from './fixtures';

const { eachLike, like, regex, uuid } = MatchersV3;

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
        customization: { title: null, description: null, logo_url: null, translations: {} },
        // A company that never chose offers every language, English by default.
        languages: { offered: eachLike('en'), default: 'en' },
        public_key: regex(/^v1\.[A-Za-z0-9_-]+$/, 'v1.BASE64URL'),
        categories: [
          { uuid: PACT_CATEGORY, name: like('Fraud and corruption'), parent_uuid: null },
          { uuid: PACT_SUB_CATEGORY, name: like('Bribery'), parent_uuid: PACT_CATEGORY },
        ],
        locations: [{ uuid: PACT_LOCATION, name: like('Head office') }],
        // What the review page checks staff messages with (docs/security.md, "Signed staff messages").
        company_id: uuid(),
        key_endorsements: like([]),
      }),
    )
    .executeTest(async (server) => {
      const view = await getCompanyPublicView(createApiClient({ baseUrl: server.url }), PACT_COMPANY);
      expect(view.public_key).toMatch(/^v1\./);
      expect(Array.isArray(view.key_endorsements)).toBe(true);
      expect(view.categories[1].parent_uuid).toBe(view.categories[0].uuid);
    });
});

test("when a customised company's landing page loads, then its title, sanitised description and logo address come, and the logo is served", async () => {
  const logoPath = `/api/account/company/${PACT_COMPANY}/logo`;
  await pact
    .addInteraction()
    .given(`a company with url_identifier ${PACT_COMPANY} has a custom title, description and logo, and a German text`)
    .uponReceiving('a discloser view request of a customised company')
    .withRequest('GET', `/api/account/company/${PACT_COMPANY}`, (request) =>
      request.headers({ Accept: 'application/json' }),
    )
    .willRespondWith(200, (response) =>
      response.jsonBody({
        url_identifier: PACT_COMPANY,
        name: like('Acme Corporation'),
        customization: {
          title: like('Tell us, safely'),
          description: like('<p>Only <strong>our ethics team</strong> reads this.</p>'),
          logo_url: regex(new RegExp(`^${logoPath}\\?v=[0-9a-f]{16}$`), `${logoPath}?v=0123456789abcdef`),
          translations: { de: { title: like('Sagen Sie es uns, sicher'), description: like('<p>Nur …</p>') } },
        },
        languages: { offered: ['en', 'de'], default: 'de' },
        public_key: regex(/^v1\.[A-Za-z0-9_-]+$/, 'v1.BASE64URL'),
        categories: like([]),
        locations: like([]),
      }),
    )
    .executeTest(async (server) => {
      const view = await getCompanyPublicView(createApiClient({ baseUrl: server.url }), PACT_COMPANY);
      expect(view.customization.title).toBeTruthy();
      expect(view.customization.logo_url).toMatch(/\/logo\?v=/);
      expect(view.customization.translations.de?.title).toBeTruthy();
      expect(view.languages).toEqual({ offered: ['en', 'de'], default: 'de' });
    });

  // The header's <img> fetches it: an image type the browser must not sniff past.
  await pact
    .addInteraction()
    .given(`a company with url_identifier ${PACT_COMPANY} has a custom title, description and logo, and a German text`)
    .uponReceiving('a request for the company logo')
    .withRequest('GET', logoPath)
    .willRespondWith(200, (response) =>
      response.headers({
        'Content-Type': regex(/^image\/(png|jpeg|svg\+xml)$/, 'image/png'),
        'X-Content-Type-Options': 'nosniff',
      }),
    )
    .executeTest(async (server) => {
      const answer = await fetch(`${server.url}${logoPath}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^image\//);
    });
});
