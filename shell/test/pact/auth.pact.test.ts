/**
 * @jest-environment node
 */
import path from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  ApiError,
  companyQrCodeUrl,
  confirmCompany,
  createApiClient,
  createCompany,
  getCompanyPublicView,
  isCommonPassword,
} from '@whistle/api-client';
import { createHash } from 'node:crypto';
import { onboardingKeys } from '../../src/public-pages/keys/password-keys';
import { companyCreateRequest } from '../../src/public-pages/onboarding/onboarding-form';

const { arrayContaining, like, eachLike, regex, uuid } = MatchersV3;

/** What the shell expects of the auth service. The provider verifies this file (services/auth/test/pact). */
const pact = new PactV4({
  consumer: 'whistle-shell',
  provider: 'whistle-auth',
  dir: path.resolve(__dirname, '../../../pacts'),
  logLevel: 'warn',
});

const KNOWN_COMPANY = 'acme-corporation-k7m2qa';
const jsonHeaders = { Accept: 'application/json', 'Content-Type': 'application/json' };

/** The payload the onboarding page sends, made by the page's own code: here from a page shown in French. */
async function onboardingPayload(email: string) {
  const password = 'correct horse battery staple';
  const values = {
    email,
    full_name: 'Ada Lovelace',
    company_name: 'Acme Corporation',
    password,
    repeat_password: password,
    country: 'FR',
  };
  return companyCreateRequest(values, await onboardingKeys(password), 'fr');
}

describe('shell → auth', () => {
  test('when an admin onboards a new company from a page in French, then the url_identifier comes back', async () => {
    const payload = await onboardingPayload('ada@acme.example');
    await pact
      .addInteraction()
      .given('no company uses the e-mail domain acme.example')
      .uponReceiving('a company create request from a page in French')
      .withRequest('POST', '/api/account/company', (request) => request.headers(jsonHeaders).jsonBody(payload))
      .willRespondWith(201, (response) =>
        response.jsonBody({ url_identifier: regex(/^[a-z0-9-]+$/, 'acme-corporation-k7m2qa') }),
      )
      .executeTest(async (server) => {
        const created = await createCompany(createApiClient({ baseUrl: server.url }), payload);
        expect(created.url_identifier).toBe('acme-corporation-k7m2qa');
      });
  });

  test('when the e-mail domain already has a company, then the exists flag comes back', async () => {
    const payload = await onboardingPayload('grace@taken.example');
    await pact
      .addInteraction()
      .given('a company uses the e-mail domain taken.example')
      .uponReceiving('a company create request from a taken domain')
      .withRequest('POST', '/api/account/company', (request) => request.headers(jsonHeaders).jsonBody(payload))
      .willRespondWith(400, (response) => response.jsonBody({ message: like('Bad Request'), exists: true }))
      .executeTest(async (server) => {
        const error = await createCompany(createApiClient({ baseUrl: server.url }), payload).catch(
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).body).toMatchObject({ exists: true });
      });
  });

  test('when required fields are missing, then per-field errors come back', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a company create request without fields')
      .withRequest('POST', '/api/account/company', (request) => request.headers(jsonHeaders).jsonBody({}))
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Invalid request body'),
          errors: { name: eachLike('This field is required'), user_profile: eachLike('This field is required') },
        }),
      )
      .executeTest(async (server) => {
        const error = (await createCompany(createApiClient({ baseUrl: server.url }), {} as never).catch(
          (caught: unknown) => caught,
        )) as ApiError;
        expect(error.status).toBe(400);
        expect(error.body).toMatchObject({ errors: { name: ['This field is required'] } });
      });
  });

  test('when a discloser opens the company link, then the public view comes back', async () => {
    await pact
      .addInteraction()
      .given(`a company with url_identifier ${KNOWN_COMPANY} exists`)
      .uponReceiving('a discloser view request')
      .withRequest('GET', `/api/account/company/${KNOWN_COMPANY}`, (request) =>
        request.headers({ Accept: 'application/json' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          url_identifier: KNOWN_COMPANY,
          name: like('Acme Corporation'),
          customization: { title: null, description: null, logo_url: null },
          public_key: regex(/^v1\.[A-Za-z0-9_-]+$/, 'v1.BASE64URL'),
          // Top-level categories (no parent) and their sub-categories, in one list.
          categories: arrayContaining(
            { uuid: uuid(), name: like('Fraud and corruption'), parent_uuid: null },
            { uuid: uuid(), name: like('Bribery'), parent_uuid: uuid() },
          ),
          locations: eachLike({ uuid: uuid(), name: like('Head office') }),
        }),
      )
      .executeTest(async (server) => {
        const view = await getCompanyPublicView(createApiClient({ baseUrl: server.url }), KNOWN_COMPANY);
        expect(view.url_identifier).toBe(KNOWN_COMPANY);
        expect(view.categories.some((category) => category.parent_uuid !== null)).toBe(true);
      });
  });

  test('when the company link names no company, then 404', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a discloser view request for an unknown company')
      .withRequest('GET', '/api/account/company/nobody-zzzzzz', (request) =>
        request.headers({ Accept: 'application/json' }),
      )
      .willRespondWith(404, (response) => response.jsonBody({ message: like('Company not found') }))
      .executeTest(async (server) => {
        const error = (await getCompanyPublicView(createApiClient({ baseUrl: server.url }), 'nobody-zzzzzz').catch(
          (caught: unknown) => caught,
        )) as ApiError;
        expect(error.status).toBe(404);
      });
  });

  test('when the success page shows the QR code, then a PNG comes back', async () => {
    await pact
      .addInteraction()
      .given(`a company with url_identifier ${KNOWN_COMPANY} exists`)
      .uponReceiving('a QR code request')
      .withRequest('GET', `/api/account/company/${KNOWN_COMPANY}/qrcode`)
      .willRespondWith(200, (response) => response.headers({ 'Content-Type': 'image/png' }))
      .executeTest(async (server) => {
        const response = await fetch(companyQrCodeUrl(createApiClient({ baseUrl: server.url }), KNOWN_COMPANY));
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
      });
  });

  test('when the admin opens the confirmation link, then the company is confirmed and its url_identifier comes back', async () => {
    await pact
      .addInteraction()
      .given('a company registration awaits confirmation with the token pact-confirmation-token')
      .uponReceiving('a company confirmation')
      .withRequest('POST', '/api/account/company/confirmation', (request) =>
        request.headers(jsonHeaders).jsonBody({ token: 'pact-confirmation-token' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({ url_identifier: regex(/^[a-z0-9-]+$/, 'acme-corporation-k7m2qa') }),
      )
      .executeTest(async (server) => {
        const confirmed = await confirmCompany(createApiClient({ baseUrl: server.url }), 'pact-confirmation-token');
        expect(confirmed.url_identifier).toBe('acme-corporation-k7m2qa');
      });
  });

  test('when the confirmation link expired or was used, then 401', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a confirmation with an unknown token')
      .withRequest('POST', '/api/account/company/confirmation', (request) =>
        request.headers(jsonHeaders).jsonBody({ token: 'used-or-expired' }),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: like('Invalid or expired link') }))
      .executeTest(async (server) => {
        const error = (await confirmCompany(createApiClient({ baseUrl: server.url }), 'used-or-expired').catch(
          (caught: unknown) => caught,
        )) as ApiError;
        expect(error.status).toBe(401);
      });
  });

  test('when a new password is checked, then the listed hash suffixes of its prefix come back', async () => {
    const hash = createHash('sha256').update('password123').digest('hex');
    await pact
      .addInteraction()
      .uponReceiving('a common-password check of one hash prefix')
      .withRequest('GET', `/api/account/password/common/${hash.slice(0, 2)}`, (request) =>
        request.headers({ Accept: 'application/json' }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ suffixes: arrayContaining(hash.slice(2, 18)) }))
      .executeTest(async (server) => {
        expect(await isCommonPassword(createApiClient({ baseUrl: server.url }), 'password123')).toBe(true);
      });
  });
});
