import { generate } from 'otplib';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import {
  formFields,
  selfSignedCertificate,
  startIdentityProvider,
  type TestIdentityProvider,
} from '@whistle/test-support';
import { adminPassword, onboardCompany, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const serviceProvider = {
  entity_id: 'https://whistle.example/api/account/company/sso/metadata',
  acs_url: 'https://whistle.example/api/account/company/sso/acs',
};

describe.each(testStacks)('auth SAML single sign-on on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
    auth = await startAuth(test$.deps);
    idp = await startIdentityProvider(serviceProvider);
  });
  afterAll(async () => {
    await idp?.close();
    await auth?.close();
    await test$?.dispose();
  });

  /** A company whose admin configured the loopback IdP. */
  async function companyWithSso(certificate = idp.certificate, emailAttribute = '') {
    const company = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const adminToken = (await client.login(company.email, adminPassword)).body.token as string;
    const saved = await client.call('PUT', '/api/account/company/sso', {
      bearer: adminToken,
      body: {
        enabled: true,
        entry_point: idp.entryPoint,
        idp_certificate: certificate,
        email_attribute: emailAttribute,
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.service_provider).toEqual(serviceProvider);
    return { ...company, client, adminToken };
  }

  /** The browser's way: our redirect → the IdP → its form; answers the SAMLResponse and RelayState to post to the ACS. */
  async function throughIdentityProvider(
    client: ReturnType<typeof staffClient>,
    email: string,
    emailAttribute?: string,
  ) {
    const redirect = await client.call('POST', '/api/account/company/sso/redirect', { form: { email } });
    expect(redirect.status).toBe(303);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`${idp.entryPoint}?`)).toBe(true);
    expect(new URL(location).searchParams.get('SAMLRequest')).toBeTruthy();
    idp.signInAs(email, emailAttribute);
    const page = await fetch(location);
    expect(page.status).toBe(200);
    return formFields(await page.text());
  }

  const postToAcs = (client: ReturnType<typeof staffClient>, fields: Record<string, string>) =>
    client.call('POST', '/api/account/company/sso/acs', { form: fields });

  /** The ACS sends the browser back to the SSO page with the reason, never a code nor raw JSON. */
  function expectBackToSsoPage(answer: Awaited<ReturnType<typeof postToAcs>>, reason: 'sso_failed' | 'no_account') {
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/company/login/sso?error=${reason}`);
  }

  test('when a user signs in at the identity provider, then the return becomes a one-time code and the code a token', async () => {
    const company = await companyWithSso();
    const fields = await throughIdentityProvider(company.client, company.email);
    const acs = await postToAcs(company.client, fields);
    expect(acs.status).toBe(303);
    const location = new URL(acs.headers.get('location')!, 'https://whistle.example');
    expect(location.pathname).toBe('/company/login/sso');
    const code = location.searchParams.get('code')!;

    const exchanged = await company.client.call('POST', '/api/account/company/sso/token', { body: { code } });
    expect(exchanged.status).toBe(200);
    const profile = await company.client.call('GET', '/api/account/company/profile/', { bearer: exchanged.body.token });
    expect(profile.body.email).toBe(company.email);
    expect((await company.client.call('POST', '/api/account/company/sso/token', { body: { code } })).status).toBe(401);
    expect(
      (await company.client.call('GET', '/api/account/company/', { bearer: company.adminToken })).body.sso_enabled,
    ).toBe(true);
  });

  const codeOf = (acs: Awaited<ReturnType<typeof postToAcs>>) =>
    new URL(acs.headers.get('location')!, 'https://whistle.example').searchParams.get('code')!;
  const redeem = (client: ReturnType<typeof staffClient>, code: string) =>
    client.call('POST', '/api/account/company/sso/token', { body: { code } });

  test('when a code reaches a browser that did not start the sign-in (login CSRF), then it is refused; the browser that started it still redeems it', async () => {
    const company = await companyWithSso();
    // The attacker signs in as themselves, stops before the code is redeemed and sends the SSO page's link on.
    const code = codeOf(await postToAcs(company.client, await throughIdentityProvider(company.client, company.email)));
    const victim = staffClient(auth.baseUrl);
    expect((await redeem(victim, code)).status).toBe(401);
    // A victim who started a sign-in of their own holds another browser's nonce: refused all the same.
    const started = await victim.call('POST', '/api/account/company/sso/redirect', { form: { email: company.email } });
    expect(started.status).toBe(303);
    const cookie = started.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^whistle_sso=[A-Za-z0-9_-]{43};/);
    for (const attribute of ['Path=/api/account/company/sso', 'HttpOnly', 'Secure', 'SameSite=Lax'])
      expect(cookie.split('; ')).toContain(attribute);
    expect((await redeem(victim, code)).status).toBe(401);
    // The attacker's own IdP answer, auto-posted by the victim's browser to the ACS: the code is bound to the
    // browser that asked the IdP, not to the one that delivered the answer.
    const planted = codeOf(await postToAcs(victim, await throughIdentityProvider(company.client, company.email)));
    const refused = await redeem(victim, planted);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Invalid or expired code');
    // The refusals used nothing up: the browser that started each sign-in still gets in with it.
    expect((await redeem(company.client, code)).status).toBe(200);
    expect((await redeem(company.client, planted)).status).toBe(200);
  });

  test('when the company names an e-mail attribute, then the user is found by that attribute, not by the NameID', async () => {
    const company = await companyWithSso(idp.certificate, 'mail');
    const fields = await throughIdentityProvider(company.client, company.email, 'mail');
    expect(Buffer.from(fields.SAMLResponse, 'base64').toString('utf8')).toMatch(/<saml:NameID [^>]*>opaque-/);
    const acs = await postToAcs(company.client, fields);
    expect(acs.status).toBe(303);
    const code = new URL(acs.headers.get('location')!, 'https://whistle.example').searchParams.get('code');
    const exchanged = await company.client.call('POST', '/api/account/company/sso/token', { body: { code } });
    expect(
      (await company.client.call('GET', '/api/account/company/profile/', { bearer: exchanged.body.token })).body.email,
    ).toBe(company.email);
  });

  test('when the same SAML response is posted again, then the replay is refused', async () => {
    const company = await companyWithSso();
    const fields = await throughIdentityProvider(company.client, company.email);
    expect((await postToAcs(company.client, fields)).headers.get('location')).toContain('code=');
    expectBackToSsoPage(await postToAcs(company.client, fields), 'sso_failed');
  });

  test('when the signed assertion is altered to name another user, then it is refused', async () => {
    const company = await companyWithSso();
    const fields = await throughIdentityProvider(company.client, `intruder@${company.domain}`);
    const xml = Buffer.from(fields.SAMLResponse, 'base64').toString('utf8');
    expect(xml).toContain(`intruder@${company.domain}`);
    const tampered = Buffer.from(xml.replaceAll(`intruder@${company.domain}`, company.email)).toString('base64');
    expectBackToSsoPage(await postToAcs(company.client, { ...fields, SAMLResponse: tampered }), 'sso_failed');
  });

  test('when the response is signed by a key the company did not configure, then it is refused', async () => {
    const company = await companyWithSso(selfSignedCertificate().cert);
    const fields = await throughIdentityProvider(company.client, company.email);
    expectBackToSsoPage(await postToAcs(company.client, fields), 'sso_failed');
  });

  test('when the SAML response is malformed or missing, then back to the SSO page and no code', async () => {
    const company = await companyWithSso();
    const fields = await throughIdentityProvider(company.client, company.email);
    const bodies: Array<Record<string, string>> = [
      { ...fields, SAMLResponse: Buffer.from('<not-saml/>').toString('base64') },
      { ...fields, SAMLResponse: 'bm90IHhtbA' },
      { RelayState: fields.RelayState },
      { ...fields, RelayState: 'not-a-company' },
    ];
    for (const body of bodies) expectBackToSsoPage(await postToAcs(company.client, body), 'sso_failed');
  });

  test('when the IdP vouches for someone without an account in that company, then the SSO page says so, and the log gives the reason but never the address', async () => {
    const company = await companyWithSso();
    const stranger = `stranger@${company.domain}`;
    const fields = await throughIdentityProvider(company.client, stranger);
    expectBackToSsoPage(await postToAcs(company.client, fields), 'no_account');
    const refusal = test$.deps.logger.entries.findLast((entry) => entry.message === 'SAML response refused');
    expect(refusal?.fields.reason).toBe('the identity has no staff account in that company');
    expect(JSON.stringify(test$.deps.logger.entries)).not.toContain(stranger);
  });

  test('when the response is addressed to another service provider (Destination and Recipient), then it is refused', async () => {
    const company = await companyWithSso();
    idp.addressTo('https://other-sp.example/saml/acs');
    try {
      const fields = await throughIdentityProvider(company.client, company.email);
      const xml = Buffer.from(fields.SAMLResponse, 'base64').toString('utf8');
      expect(xml).toContain('Recipient="https://other-sp.example/saml/acs"');
      expectBackToSsoPage(await postToAcs(company.client, fields), 'sso_failed');
      const refusal = test$.deps.logger.entries.findLast((entry) => entry.message === 'SAML response refused');
      expect(refusal?.fields.reason).toBe('the response is addressed to another Destination or Recipient');
    } finally {
      idp.addressTo(undefined);
    }
    // The same IdP answering for Whistle's own ACS is accepted.
    const fields = await throughIdentityProvider(company.client, company.email);
    expect((await postToAcs(company.client, fields)).headers.get('location')).toContain('code=');
  });

  test('when the e-mail attribute the company named is missing from the assertion, then it is refused with that reason logged', async () => {
    const company = await companyWithSso(idp.certificate, 'mail');
    const fields = await throughIdentityProvider(company.client, company.email, 'email');
    expectBackToSsoPage(await postToAcs(company.client, fields), 'sso_failed');
    const refusal = test$.deps.logger.entries.findLast((entry) => entry.message === 'SAML response refused');
    expect(refusal?.fields.reason).toBe('the assertion has no attribute mail');
  });

  test('when the entity id URL is opened, then it serves the SP metadata an IdP administrator imports', async () => {
    const answer = await fetch(`${auth.baseUrl}/api/account/company/sso/metadata`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await answer.text();
    expect(xml).toContain(`entityID="${serviceProvider.entity_id}"`);
    expect(xml).toContain(`Location="${serviceProvider.acs_url}"`);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(xml).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect(xml).toContain('WantAssertionsSigned="true"');
  });

  test('when the user has MFA, then the SSO code is answered with an MFA challenge, as a login is', async () => {
    const company = await companyWithSso();
    const setup = await company.client.call('POST', '/api/account/company/profile/mfa', { bearer: company.adminToken });
    await company.client.call('POST', '/api/account/company/profile/mfa', {
      bearer: company.adminToken,
      body: { challenge_code: await generate({ secret: setup.body.secret }) },
    });
    const acs = await postToAcs(company.client, await throughIdentityProvider(company.client, company.email));
    const code = new URL(acs.headers.get('location')!, 'https://whistle.example').searchParams.get('code');
    const answer = await company.client.call('POST', '/api/account/company/sso/token', { body: { code } });
    expect(answer.body).toEqual({ mfa_required: true, challenge_id: expect.any(String) });
  });

  test('when the e-mail domain has no single sign-on, then the browser goes back to the SSO page with an error', async () => {
    const client = staffClient(auth.baseUrl);
    const answer = await client.call('POST', '/api/account/company/sso/redirect', {
      form: { email: 'someone@unknown-domain.example' },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/company/login/sso?error=sso_unavailable');
    expect(
      (await client.call('POST', '/api/account/company/sso/redirect', { form: { email: 'not an email' } })).status,
    ).toBe(400);
  });
});
