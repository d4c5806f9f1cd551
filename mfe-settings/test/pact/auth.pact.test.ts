/**
 * @jest-environment node
 */
import path from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  changePassword,
  confirmMfaSetup,
  createApiClient,
  createCategory,
  createLocation,
  getMailPreferences,
  removeLogo,
  setMailPreferences,
  startMfaSetup,
  updateCompany,
  updateCustomization,
  updateFullName,
  uploadLogo,
  type ApiError,
} from '@whistle/api-client';

const { boolean, eachLike, integer, like, regex, uuid } = MatchersV3;

/**
 * What account settings expect of auth. The Bearer is a placeholder: the provider test
 * (services/auth/test/pact) swaps in the token its state handler made.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-settings',
  provider: 'whistle-auth',
  dir: path.resolve(__dirname, '../../../pacts'),
  logLevel: 'warn',
});

const ADMIN = 'ada@settings.example';
const PASSWORD = 'correct horse battery staple';
const headers = { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer staff-token' };
const api = (url: string) => createApiClient({ baseUrl: url, getToken: () => 'staff-token' });
const jwt = regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln');
const profile = (fullName: string) => ({
  uuid: uuid(),
  email: ADMIN,
  full_name: fullName,
  roles: eachLike('ADMIN'),
  mfa_auth_factor_id: null,
});
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: ApiError) => error,
  );
const STATE = `staff member ${ADMIN} without MFA exists`;

describe('mfe-settings → auth', () => {
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

  test("when the account page loads the member's mail preferences, then their language and four switches come back", async () => {
    const getHeaders = { Accept: 'application/json', Authorization: 'Bearer staff-token' };
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving("the member's mail preferences")
      .withRequest('GET', '/api/account/profile/notifications', (request) => request.headers(getHeaders))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          language: regex(/^(en|fr)$/, 'en'),
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

  test('when the member saves their mail preferences, then what was kept comes back', async () => {
    const wanted = {
      language: 'fr' as const,
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
        request.headers(headers).jsonBody({ password: 'a brand new passphrase', current_password: PASSWORD }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({ ...profile('Ada Lovelace'), full_name: like('Ada Lovelace'), token: jwt }),
      )
      .executeTest(async (server) => {
        expect(await changePassword(api(server.url), PASSWORD, 'a brand new passphrase')).toHaveProperty('token');
      });
  });

  test('when the current password is wrong, then a field error comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a password change with a wrong current password')
      .withRequest('PUT', '/api/account/profile', (request) =>
        request.headers(headers).jsonBody({ password: 'a brand new passphrase', current_password: 'not my password' }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Bad Request'),
          errors: { current_password: eachLike('The current password is wrong') },
        }),
      )
      .executeTest(async (server) => {
        const error = await failure(changePassword(api(server.url), 'not my password', 'a brand new passphrase'));
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
