/**
 * @jest-environment node
 */
import path from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  createApiClient,
  getSsoSettings,
  saveSsoSettings,
  setCompanyMfaRequired,
  type ApiError,
} from '@whistle/api-client';

const { boolean, eachLike, like, regex } = MatchersV3;

/**
 * What the single sign-on and security pages expect of auth (same pact as auth.pact.test.ts: interactions
 * are merged into it). The Bearer is a placeholder the provider test swaps for its state's admin token.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-settings',
  provider: 'whistle-auth',
  dir: path.resolve(__dirname, '../../../pacts'),
  logLevel: 'warn',
});

const ADMIN = 'ada@settings.example';
const headers = { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer staff-token' };
const api = (url: string) => createApiClient({ baseUrl: url, getToken: () => 'staff-token' });
const isoDate = (example: string) => regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, example);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: ApiError) => error,
  );

/** An IdP certificate valid until 2126 (self-signed, openssl): the provider reads it as any other. */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIDITCCAgmgAwIBAgIUC+K8VbVfvrR6pz7nyvHI3H9AeUAwDQYJKoZIhvcNAQEL
BQAwHzEdMBsGA1UEAwwUaWRwLnNldHRpbmdzLmV4YW1wbGUwIBcNMjYxMTI1MTE1
OTAyWhgPMjEyNjExMDExMTU5MDJaMB8xHTAbBgNVBAMMFGlkcC5zZXR0aW5ncy5l
eGFtcGxlMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAlfpIDoaQqEch
t0pkhJJl6R7C9lvou/s2KCnoUJGid8gJx0KFdY5qWeaVEMJ+6ySgnx0SuTNB8uNH
kyXjeIi7LFJxL8JnEhcvl8iOtfW+tD8LypovUud8aSqcvEwRR25bNIK5Sb5DVJAa
XMf0OVNT1T2j9IAZErIABZ415pVActiDXvS0+81xyIT/279lrUFHW1KAkjb4caix
JgtFxlIa/jBUWvb9XZKRKFO7j6Dgo154soM2xRKRUxqvrSaWASLOwI+JXBoJh5jK
vN1hY8akQd65+S50lwSdAAzufnK66IG81rNurDKj/M1AkzY2VrbTyQwMKJCMJPFV
AiQ/JjrmSwIDAQABo1MwUTAdBgNVHQ4EFgQURZCB2BF22Bx1UXjKflNVUrV3ZSUw
HwYDVR0jBBgwFoAURZCB2BF22Bx1UXjKflNVUrV3ZSUwDwYDVR0TAQH/BAUwAwEB
/zANBgkqhkiG9w0BAQsFAAOCAQEAJPV1XWVJxja2JrN8iHFqAOtYibuRZJHI4a2W
SDRkmzOhudmW5ZR6s654xTX8C1QWjh+GODo69CEy2Lj66v08WHO8IK0pYJoApYml
nSgzoe3LhtJCggFyn6VvrEV271WSa1OeRNRnWL7i0CiL4S7z36TmFgREXtBDOa/S
q13oq42Aul1GHUSwTBRGMdUp4rbLxBmN0kZgo1G5B8AVtsFJN/d5/3BRrx4668TE
LHlQt22dK1TqtL6IKndTxY1EtlgGn1ZNwHMSSYeNOFdo1bxCntIRBMyp3/RcyWMB
aOFVnrsG/9mKJ2iNYmqu7fsS1nkEOF+kUFU+4NIO7HLraRH4Tg==
-----END CERTIFICATE-----`;
/** Valid in January 2020 only: auth must refuse it. */
const EXPIRED_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIICzjCCAbYCAQEwDQYJKoZIhvcNAQELBQAwLTEZMBcGA1UEAwwQZXhwaXJlZC1p
ZHAudGVzdDEQMA4GA1UECgwHT2xkIElkUDAeFw0yMDAxMDEwMDAwMDBaFw0yMDAy
MDEwMDAwMDBaMC0xGTAXBgNVBAMMEGV4cGlyZWQtaWRwLnRlc3QxEDAOBgNVBAoM
B09sZCBJZFAwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDMye37oDd2
QMM2hQxRQSKLYF++dNa+o0HrF5gmKHTsx6fCCfThH4FqI1xP4OXgDv60dqHEpPtI
JB+JYEdiGeHxzZ3mRGLZk/S05bcNmsgDMj1reMenbzvu3lEfA4ZMGHhFMTcEiD4f
tXbvc/vBhjWPrkuOgfJbeWaM46yIRpgDpQSoDl2eNUtwLh4bq8P2qua0MeHnMGNk
/UB6s7csJps/kt27gS5uSXtKcTISv8S5gt8grPFItX+5EIPhRm1g8dbV275ORbKz
NloRGeUMhGnVsr06URQmKsSNM+EbsWH6K6L4GE2W2IkwFlNvh06RrMoM9cmuNO/F
ZOz5OBfZePcxAgMBAAEwDQYJKoZIhvcNAQELBQADggEBAKjZApNdOaLevRVl6JJw
pWu9o0Eh/vdQDFFeul0dvBdEdNEiqzaUZRuCmOsKBxn2JOKnic4GXUu3up5qFzNh
BFhNbB9VNCHPe20P7R5T9JJqQ/4iubVaBRMs6VCkMmvVIM3HtZYxgTKRdJuQ5z96
BJo/5eSQJV283tSCGZxmV+P7y+aYFWu6j0EIeHew4ZrfASMfatmjBplCTONk4QLJ
yKvv56ZjWuwa3MnimAJBwi+v+1urIsZqrVIUsSk0DzoMiQZozz6ruk8s57AL45EL
urm4SjDKSWQhBMZQ81pmt5S6Gzh8LDr2k4LAmXBRpnWkZDobVjY9l8W6Knez4qr7
rtw=
-----END CERTIFICATE-----`;

const settingsBody = (overrides: Record<string, unknown> = {}) => ({
  configured: true,
  enabled: boolean(true),
  require_sso: boolean(false),
  entry_point: like('https://idp.settings.example/sso'),
  idp_certificate: like(CERTIFICATE),
  certificate: {
    subject: like('CN=idp.settings.example'),
    issuer: like('CN=idp.settings.example'),
    valid_from: isoDate('2026-01-01T00:00:00.000Z'),
    valid_to: isoDate('2126-01-01T00:00:00.000Z'),
    fingerprint_sha256: regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, `${'AB:'.repeat(31)}AB`),
  },
  email_attribute: like(''),
  service_provider: {
    entity_id: like('https://whistle.example/api/account/company/sso/metadata'),
    acs_url: like('https://whistle.example/api/account/company/sso/acs'),
  },
  ...overrides,
});

describe('mfe-settings → auth: single sign-on and MFA policy', () => {
  test('when the single sign-on page opens, then the saved IdP, its certificate and the service provider come back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} has single sign-on configured`)
      .uponReceiving('the single sign-on settings')
      .withRequest('GET', '/api/account/company/sso', (request) =>
        request.headers({ Accept: 'application/json', Authorization: 'Bearer staff-token' }),
      )
      .willRespondWith(200, (response) => response.jsonBody(settingsBody()))
      .executeTest(async (server) => {
        const settings = await getSsoSettings(api(server.url));
        expect(settings.certificate?.subject).toBe('CN=idp.settings.example');
        expect(settings.service_provider.acs_url).toMatch(/\/api\/account\/company\/sso\/acs$/);
      });
  });

  test('when an admin saves the IdP and requires single sign-on, then the saved settings come back', async () => {
    const wanted = {
      enabled: true,
      require_sso: true,
      entry_point: 'https://idp.settings.example/sso',
      idp_certificate: CERTIFICATE,
      email_attribute: 'mail',
    };
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a single sign-on settings update requiring SSO')
      .withRequest('PUT', '/api/account/company/sso', (request) => request.headers(headers).jsonBody(wanted))
      .willRespondWith(200, (response) =>
        response.jsonBody(
          settingsBody({
            enabled: true,
            require_sso: true,
            entry_point: 'https://idp.settings.example/sso',
            idp_certificate: CERTIFICATE,
            email_attribute: 'mail',
          }),
        ),
      )
      .executeTest(async (server) => {
        const saved = await saveSsoSettings(api(server.url), wanted);
        expect(saved).toMatchObject({ require_sso: true, email_attribute: 'mail' });
      });
  });

  test('when the certificate has expired, then a field error on idp_certificate comes back', async () => {
    const wanted = {
      enabled: true,
      require_sso: false,
      entry_point: 'https://idp.settings.example/sso',
      idp_certificate: EXPIRED_CERTIFICATE,
      email_attribute: '',
    };
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a single sign-on settings update with an expired certificate')
      .withRequest('PUT', '/api/account/company/sso', (request) => request.headers(headers).jsonBody(wanted))
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Bad Request'),
          errors: { idp_certificate: eachLike('Expired certificate') },
        }),
      )
      .executeTest(async (server) => {
        const error = await failure(saveSsoSettings(api(server.url), wanted));
        expect(error?.status).toBe(400);
        expect(error?.body).toMatchObject({ errors: { idp_certificate: ['Expired certificate'] } });
      });
  });

  test('when an admin requires MFA of all staff, then the policy comes back', async () => {
    await pact
      .addInteraction()
      .given(`staff member ${ADMIN} without MFA exists`)
      .uponReceiving('a company MFA requirement')
      .withRequest('PUT', '/api/account/company/mfa', (request) =>
        request.headers(headers).jsonBody({ mfa_required: true }),
      )
      .willRespondWith(200, (response) => response.jsonBody({ mfa_required: true }))
      .executeTest(async (server) => {
        expect(await setCompanyMfaRequired(api(server.url), true)).toEqual({ mfa_required: true });
      });
  });
});
