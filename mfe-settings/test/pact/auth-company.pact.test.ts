/**
 * @jest-environment node
 */
import { MatchersV3 } from '@pact-foundation/pact';
import {
  createCategory,
  createLocation,
  removeLogo,
  updateCompany,
  updateCustomization,
  updateLanguages,
  uploadLogo,
} from '@whistle/api-client';
import { authPact, headers, api, failure, STATE } from './auth-fixtures';

const { boolean, eachLike, integer, like, regex, uuid } = MatchersV3;

/** What the admins' company settings expect of auth. */
const pact = authPact();

describe('mfe-settings → auth: company', () => {
  test('when an admin saves name and country, then the whole company state comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a company name and country update')
      .withRequest('PUT', '/api/account/company', (request) =>
        request.headers(headers).jsonBody({ name: 'Acme Europe', country: 'DE' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          name: 'Acme Europe',
          country: 'DE',
          resolution_deadline_days: integer(14),
          notifications: {
            new_incidents: boolean(true),
            assigned_to_an_incident: boolean(true),
            incident_updates: boolean(true),
            deadlines: boolean(true),
          },
        }),
      )
      .executeTest(async (server) => {
        expect((await updateCompany(api(server.url), { name: 'Acme Europe', country: 'DE' })).name).toBe('Acme Europe');
      });
  });

  test('when an admin sets the resolution deadline, then it comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a resolution deadline update')
      .withRequest('PUT', '/api/account/company', (request) =>
        request.headers(headers).jsonBody({ settings: { resolution_deadline_days: 30 } }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({ name: like('Acme'), resolution_deadline_days: 30, notifications: like({}) }),
      )
      .executeTest(async (server) => {
        const state = await updateCompany(api(server.url), { settings: { resolution_deadline_days: 30 } });
        expect(state.resolution_deadline_days).toBe(30);
      });
  });

  test('when an admin adds a label with a sub-category, then it comes back with its uuid and sub-category', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a new reporting label')
      .withRequest('POST', '/api/account/company/category/', (request) =>
        request
          .headers(headers)
          .jsonBody({ name: 'Supply chain', management_categories: [{ name: 'Sanctions' }], user_profiles: [] }),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({
          uuid: uuid(),
          name: 'Supply chain',
          parent_uuid: null,
          is_active: true,
          user_profiles: [],
          management_categories: eachLike({ uuid: uuid(), name: 'Sanctions', parent_uuid: uuid(), is_active: true }),
        }),
      )
      .executeTest(async (server) => {
        const category = await createCategory(api(server.url), {
          name: 'Supply chain',
          management_categories: [{ name: 'Sanctions' }],
          user_profiles: [],
        });
        expect(category.management_categories[0]?.name).toBe('Sanctions');
      });
  });

  test('when an admin adds a location whose name is taken, then the field error comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a location with a taken name')
      .withRequest('POST', '/api/account/company/location/', (request) =>
        request.headers(headers).jsonBody({ name: 'Head office' }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Bad Request'),
          errors: { name: eachLike('A location with this name already exists') },
        }),
      )
      .executeTest(async (server) => {
        const error = await failure(createLocation(api(server.url), { name: 'Head office' }));
        expect(error?.status).toBe(400);
      });
  });

  const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const logoUrl = regex(
    /^\/api\/account\/company\/[a-z0-9-]+\/logo\?v=[0-9a-f]{16}$/,
    '/api/account/company/acme/logo?v=0123456789abcdef',
  );

  test('when an admin saves the disclosure page title and description, then the description comes back sanitised', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a disclosure page title and description with injected script')
      .withRequest('PUT', '/api/account/company/customization', (request) =>
        request.headers(headers).jsonBody({
          title: 'Tell us, safely',
          description:
            '<p>Only <strong>our team</strong> reads this.<img src=x onerror=alert(1)></p><script>alert(2)</script>',
        }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          title: 'Tell us, safely',
          description: '<p>Only <strong>our team</strong> reads this.</p>',
          logo_url: null,
        }),
      )
      .executeTest(async (server) => {
        const saved = await updateCustomization(api(server.url), {
          title: 'Tell us, safely',
          description:
            '<p>Only <strong>our team</strong> reads this.<img src=x onerror=alert(1)></p><script>alert(2)</script>',
        });
        expect(saved.description).not.toContain('script');
      });
  });

  test('when an admin writes the German text and offers German by default, then each answer says what is stored', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a German title and description for the disclosure page')
      .withRequest('PUT', '/api/account/company/customization', (request) =>
        request.headers(headers).jsonBody({ language: 'de', title: 'Sprechen Sie', description: '<p>Nur wir</p>' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          title: null,
          description: null,
          logo_url: null,
          translations: { de: { title: 'Sprechen Sie', description: '<p>Nur wir</p>' } },
        }),
      )
      .executeTest(async (server) => {
        const saved = await updateCustomization(api(server.url), {
          language: 'de',
          title: 'Sprechen Sie',
          description: '<p>Nur wir</p>',
        });
        expect(saved.translations.de?.title).toBe('Sprechen Sie');
      });
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('the languages of the disclosure page')
      .withRequest('PUT', '/api/account/company/languages', (request) =>
        request.headers(headers).jsonBody({ offered: ['en', 'de'], default: 'de' }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ offered: ['en', 'de'], default: 'de' }))
      .executeTest(async (server) => {
        expect(await updateLanguages(api(server.url), { offered: ['en', 'de'], default: 'de' })).toEqual({
          offered: ['en', 'de'],
          default: 'de',
        });
      });
  });

  test('when an admin uploads a PNG logo, then its public address comes back; removed, it is null again', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a PNG logo upload')
      .withRequest('PUT', '/api/account/company/customization/logo', (request) =>
        request.headers(headers).jsonBody({ content: PNG_BASE64 }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ title: null, description: null, logo_url: logoUrl }))
      .executeTest(async (server) => {
        expect((await uploadLogo(api(server.url), PNG_BASE64)).logo_url).toMatch(/\/logo\?v=/);
      });
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a logo removal')
      .withRequest('DELETE', '/api/account/company/customization/logo', (request) =>
        request.headers({ Accept: 'application/json', Authorization: 'Bearer staff-token' }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ title: null, description: null, logo_url: null }))
      .executeTest(async (server) => {
        expect((await removeLogo(api(server.url))).logo_url).toBeNull();
      });
  });

  test('when an admin uploads a text file as a logo, then the field error comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a logo upload that is not an image')
      .withRequest('PUT', '/api/account/company/customization/logo', (request) =>
        request.headers(headers).jsonBody({ content: Buffer.from('not an image').toString('base64') }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Invalid logo'),
          errors: { content: ['The logo must be a PNG, JPEG or SVG image'] },
        }),
      )
      .executeTest(async (server) => {
        const error = await failure(uploadLogo(api(server.url), Buffer.from('not an image').toString('base64')));
        expect(error?.status).toBe(400);
      });
  });
});
