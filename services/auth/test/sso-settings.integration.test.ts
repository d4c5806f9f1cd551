import { createRecordingMailer, type RecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { formFields, startIdentityProvider, type TestIdentityProvider } from '@whistle/test-support';
import { adminPassword, invitedMember, memberPassword, signedInAdmin, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const serviceProvider = {
  entity_id: 'https://whistle.example/api/account/company/sso/metadata',
  acs_url: 'https://whistle.example/api/account/company/sso/acs',
};

/** A certificate that was valid in January 2020 only (made with `openssl ca -startdate -enddate`). */
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
-----END CERTIFICATE-----
`;

describe.each(testStacks)('auth single sign-on settings and requirement on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  let idp: TestIdentityProvider;
  let mailer: RecordingMailer;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
    mailer = createRecordingMailer();
    auth = await startAuth({ ...test$.deps, mailer });
    idp = await startIdentityProvider(serviceProvider);
  });
  afterAll(async () => {
    await idp?.close();
    await auth?.close();
    await test$?.dispose();
  });

  /** A company, its admin's token, and a way to add members (invited, password chosen) by role. */
  async function company() {
    const co = await signedInAdmin(auth);
    const member = async (role: 'REVIEWER' | 'HANDLER') => invitedMember(auth, co, { roles: [role] });
    const settings = (overrides: Record<string, unknown> = {}) => ({
      enabled: true,
      entry_point: idp.entryPoint,
      idp_certificate: idp.certificate,
      email_attribute: '',
      require_sso: false,
      ...overrides,
    });
    return { ...co, member, settings };
  }

  /** The browser's way through the loopback IdP; answers where the ACS sends the browser. */
  async function signInThroughIdp(client: ReturnType<typeof staffClient>, email: string) {
    const redirect = await client.call('POST', '/api/account/company/sso/redirect', { form: { email } });
    idp.signInAs(email);
    const fields = formFields(await (await fetch(redirect.headers.get('location')!)).text());
    const acs = await client.call('POST', '/api/account/company/sso/acs', { form: fields });
    return new URL(acs.headers.get('location')!, 'https://whistle.example');
  }

  test('when nothing is configured yet, then GET answers empty settings with the service provider to give the IdP', async () => {
    const co = await company();
    const answer = await co.admin('GET', '/api/account/company/sso');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      configured: false,
      enabled: false,
      require_sso: false,
      entry_point: '',
      idp_certificate: '',
      certificate: null,
      email_attribute: '',
      service_provider: serviceProvider,
    });
  });

  test('when the IdP certificate is saved, then the answer and GET show its subject, issuer, validity and fingerprint', async () => {
    const co = await company();
    const saved = await co.admin('PUT', '/api/account/company/sso', co.settings({ email_attribute: ' mail ' }));
    expect(saved.status).toBe(200);
    const answer = await co.admin('GET', '/api/account/company/sso');
    expect(answer.body).toEqual(saved.body);
    expect(answer.body).toMatchObject({
      configured: true,
      enabled: true,
      require_sso: false,
      entry_point: idp.entryPoint,
      email_attribute: 'mail',
      certificate: {
        subject: 'CN=idp.test',
        issuer: 'CN=idp.test',
        fingerprint_sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
      },
    });
    const { valid_from, valid_to } = answer.body.certificate;
    expect(new Date(valid_from).getTime()).toBeLessThanOrEqual(Date.now());
    // The loopback IdP's certificate is made for two days.
    expect(new Date(valid_to).getTime()).toBeGreaterThan(Date.now() + 24 * 3600 * 1000);
  });

  test('when the certificate is not one, is several, or has expired, then a 400 names the field and nothing is kept', async () => {
    const co = await company();
    expect((await co.admin('PUT', '/api/account/company/sso', co.settings())).status).toBe(200);
    const refusals: Array<[string, string]> = [
      ['not a certificate at all', 'Invalid certificate'],
      [`-----BEGIN CERTIFICATE-----\n${'A'.repeat(200)}\n-----END CERTIFICATE-----`, 'Invalid certificate'],
      [`${idp.certificate}\n${idp.certificate}`, 'Invalid certificate'],
      [EXPIRED_CERTIFICATE, 'Expired certificate'],
    ];
    for (const [certificate, message] of refusals) {
      const answer = await co.admin('PUT', '/api/account/company/sso', co.settings({ idp_certificate: certificate }));
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual({ idp_certificate: [message] });
    }
    const bad = await co.admin(
      'PUT',
      '/api/account/company/sso',
      co.settings({ entry_point: 'ftp://idp', enabled: 1 }),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['enabled', 'entry_point']);
    expect((await co.admin('GET', '/api/account/company/sso')).body.idp_certificate).toBe(idp.certificate.trim());
  });

  test('when SSO is required while switched off, then a 400 on require_sso (nobody but admins could sign in)', async () => {
    const co = await company();
    const answer = await co.admin(
      'PUT',
      '/api/account/company/sso',
      co.settings({ enabled: false, require_sso: true }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ require_sso: ['Single sign-on must be enabled to require it'] });
    expect((await co.admin('GET', '/api/account/company/sso')).body.configured).toBe(false);
  });

  test('when SSO is required, then a reviewer and a handler are refused password sign-in but get in through the IdP; the admin keeps the password as break-glass', async () => {
    const co = await company();
    const reviewer = await co.member('REVIEWER');
    const handler = await co.member('HANDLER');
    expect((await co.admin('PUT', '/api/account/company/sso', co.settings({ require_sso: true }))).status).toBe(200);

    for (const member of [reviewer, handler]) {
      const refused = await co.client.login(member.email, memberPassword);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Single sign-on required');
      expect(refused.body.token).toBeUndefined();
      // A wrong password is still only a wrong password: the policy is told after the right one.
      expect((await co.client.login(member.email, 'not the password')).status).toBe(401);
    }
    expect(JSON.stringify(test$.deps.logger.entries)).not.toContain(reviewer.email);

    const landing = await signInThroughIdp(co.client, reviewer.email);
    const exchanged = await co.client.call('POST', '/api/account/company/sso/token', {
      body: { code: landing.searchParams.get('code') },
    });
    expect(exchanged.status).toBe(200);
    const profile = await co.client.call('GET', '/api/account/company/profile/', { bearer: exchanged.body.token });
    expect(profile.body.email).toBe(reviewer.email);

    const breakGlass = await co.client.login(co.email, adminPassword);
    expect(breakGlass.status).toBe(200);
    expect(breakGlass.body.token).toEqual(expect.any(String));

    // Lifted again, or with SSO switched off altogether: the password works for everyone.
    expect((await co.admin('PUT', '/api/account/company/sso', co.settings({ require_sso: false }))).status).toBe(200);
    expect((await co.client.login(reviewer.email, memberPassword)).status).toBe(200);
    expect((await co.admin('PUT', '/api/account/company/sso', co.settings({ enabled: false }))).status).toBe(200);
    expect((await co.client.login(handler.email, memberPassword)).status).toBe(200);
  });

  test('when one company requires SSO, then another company is untouched: its settings, its members and its GET stay its own', async () => {
    const strict = await company();
    const other = await company();
    const otherReviewer = await other.member('REVIEWER');
    expect(
      (
        await strict.admin(
          'PUT',
          '/api/account/company/sso',
          strict.settings({ require_sso: true, email_attribute: 'mail' }),
        )
      ).status,
    ).toBe(200);
    expect((await other.client.login(otherReviewer.email, memberPassword)).status).toBe(200);
    expect((await other.admin('GET', '/api/account/company/sso')).body.configured).toBe(false);
    expect((await other.admin('PUT', '/api/account/company/sso', other.settings())).status).toBe(200);
    const strictView = await strict.admin('GET', '/api/account/company/sso');
    expect(strictView.body).toMatchObject({ require_sso: true, email_attribute: 'mail' });
    expect((await other.admin('GET', '/api/account/company/sso')).body).toMatchObject({
      require_sso: false,
      email_attribute: '',
    });
  });

  test('when a reviewer or a handler calls the SSO settings or the MFA policy, then 403, and nothing changes', async () => {
    const co = await company();
    for (const role of ['REVIEWER', 'HANDLER'] as const) {
      const { token } = await co.member(role);
      const as = (method: string, path: string, body?: unknown) =>
        co.client.call(method, path, { bearer: token, body });
      expect((await as('GET', '/api/account/company/sso')).status).toBe(403);
      expect((await as('PUT', '/api/account/company/sso', co.settings({ require_sso: true }))).status).toBe(403);
      expect((await as('PUT', '/api/account/company/mfa', { mfa_required: true })).status).toBe(403);
    }
    expect((await co.admin('GET', '/api/account/company/sso')).body.configured).toBe(false);
    expect((await co.admin('GET', '/api/account/company/')).body.mfa_required).toBe(false);
  });

  test('when MFA is required, then a member without MFA gets at their next sign-in a token that reaches only MFA set-up', async () => {
    const co = await company();
    const reviewer = await co.member('REVIEWER');
    const put = await co.admin('PUT', '/api/account/company/mfa', { mfa_required: true });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ mfa_required: true });
    expect((await co.admin('GET', '/api/account/company/')).body.mfa_required).toBe(true);

    const signedIn = await co.client.login(reviewer.email, memberPassword);
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.token as string;
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims.mfa_enrollment_required).toBe(true);
    expect((await co.client.call('GET', '/api/account/company/profile/', { bearer: token })).status).toBe(200);
    expect((await co.client.call('GET', '/api/account/profile/notifications', { bearer: token })).status).toBe(403);
    expect((await co.client.call('POST', '/api/account/company/profile/mfa', { bearer: token })).status).toBe(200);

    expect((await co.admin('PUT', '/api/account/company/mfa', { mfa_required: 'yes' })).status).toBe(400);
  });
});
