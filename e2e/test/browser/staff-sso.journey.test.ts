import type { Browser } from 'playwright-core';
import { startIdentityProvider, type TestIdentityProvider } from '@whistle/test-support';
import { apiToken, onboardCompany, saveSsoSettings } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/** SSO sign-in in Chromium: the e-mail form posts, the browser goes to a SAML IdP on loopback and comes back signed in. */
let platform: StandalonePlatform;
let browser: Browser;
let idp: TestIdentityProvider;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  idp = await startIdentityProvider({
    entity_id: `${platform.baseUrl}/api/account/company/sso/metadata`,
    acs_url: `${platform.baseUrl}/api/account/company/sso/acs`,
  });
});
afterAll(async () => {
  await idp?.close();
  await browser?.close();
  await platform?.dispose();
});

test('when a staff member signs in through the company’s identity provider, then the incidents page opens', async () => {
  const company = await onboardCompany(platform);
  await saveSsoSettings(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    enabled: true,
    entry_point: idp.entryPoint,
    idp_certificate: idp.certificate,
    email_attribute: '',
  });
  idp.signInAs(company.adminEmail);

  const context = await browser.newContext();
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${platform.baseUrl}/company/login`);
  await page.getByRole('link', { name: /single sign-on/ }).click();
  await page.waitForURL(/\/company\/login\/sso/);
  await page.getByLabel('Email').fill(company.adminEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/company\/incidents$/, { timeout: 30_000 });
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

  // An unknown or used code says so and offers the form again.
  await page.goto(`${platform.baseUrl}/company/login/sso?code=used-or-unknown`);
  await page.getByText('Single sign-on failed').waitFor();

  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when an attacker’s own SSO code is opened in another browser (login CSRF), then single sign-on fails there and still works where it started', async () => {
  const company = await onboardCompany(platform);
  await saveSsoSettings(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    enabled: true,
    entry_point: idp.entryPoint,
    idp_certificate: idp.certificate,
    email_attribute: '',
  });
  idp.signInAs(company.adminEmail);

  // The attacker signs in as themselves and keeps the code: their browser never redeems it.
  const attacker = await browser.newContext();
  const attackerPage = await attacker.newPage();
  await attackerPage.route('**/api/account/company/sso/token', (route) => route.abort());
  await attackerPage.goto(`${platform.baseUrl}/company/login/sso`);
  await attackerPage.getByLabel('Email').fill(company.adminEmail);
  await attackerPage.getByRole('button', { name: 'Continue' }).click();
  await attackerPage.waitForURL(/\/company\/login\/sso\?code=/);
  const link = attackerPage.url();

  // The victim opens the link the attacker sent: their browser did not start that sign-in.
  const victim = await browser.newContext();
  const victimPage = await victim.newPage();
  await victimPage.goto(link);
  await victimPage.getByText('Single sign-on failed').waitFor();
  expect(await victimPage.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await victim.close();

  // The code was not used up: in the browser that started the sign-in it still signs in.
  await attackerPage.unroute('**/api/account/company/sso/token');
  await attackerPage.goto(link);
  await attackerPage.waitForURL(/\/company\/incidents$/, { timeout: 30_000 });
  await attacker.close();
});
