import type { Browser } from 'playwright-core';
import { launchChromium } from '../../src/browser';
import { startIdentityProvider, type TestIdentityProvider } from '@whistle/test-support';
import { apiToken, onboardCompany, saveSsoSettings } from '../../src/staff';
import { startStandalone, type StandalonePlatform } from '../../src/standalone';

/** SSO sign-in in Chromium: the e-mail form posts, the browser goes to a SAML IdP on loopback and comes back signed in. */
let platform: StandalonePlatform;
let browser: Browser;
let idp: TestIdentityProvider;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startStandalone(), launchChromium()]);
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
