import { newPasswordCredentials } from '@whistle/test-support';
import type { Browser, Page } from 'playwright-core';
import { startIdentityProvider, type TestIdentityProvider } from '@whistle/test-support';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { passwordTokenIn, waitForMail } from '../../src/mailbox';
import {
  STAFF_PASSWORD,
  apiToken,
  invite,
  onboardCompany,
  signInInFrench,
  submitLogin,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Sign-in security from the settings pages, in Chromium on the standalone platform: an admin sets up single
 * sign-on against a SAML IdP on loopback, tries it in a new tab, requires it (a reviewer's password is then
 * refused), checks both pages with axe in French, and finally requires MFA of all staff.
 */
let platform: StandalonePlatform;
let browser: Browser;
let idp: TestIdentityProvider;
let company: OnboardedCompany;
const REVIEWER_PASSWORD = 'reviewer passphrase 1234';
const reviewerEmail = () => `rita@${company.domain}`;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  idp = await startIdentityProvider({
    entity_id: `${platform.baseUrl}/api/account/company/sso/metadata`,
    acs_url: `${platform.baseUrl}/api/account/company/sso/acs`,
  });
  company = await onboardCompany(platform);
  // A reviewer with a password of their own, chosen from the invitation link.
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: reviewerEmail(),
    full_name: 'Rita Reviewer',
    roles: ['REVIEWER'],
  });
  const linkToken = passwordTokenIn(await waitForMail(platform.dataDir, reviewerEmail(), /invited/));
  const chosen = await fetch(`${platform.baseUrl}/api/account/profile`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${linkToken}`,
    },
    body: JSON.stringify((await newPasswordCredentials(REVIEWER_PASSWORD)).body),
  });
  expect(chosen.status).toBe(204);
});
afterAll(async () => {
  await idp?.close();
  await browser?.close();
  await platform?.dispose();
});

async function signIn(page: Page) {
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
}

const sidebarLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name, exact: true });

test('when an admin sets up single sign-on from its page and tries it, then the sign-in succeeds in a new tab, and requiring it refuses a reviewer’s password', async () => {
  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await signIn(page);
  await page.goto(`${platform.baseUrl}/company/settings`);
  await sidebarLink(page, 'Single sign-on').click();
  await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();

  // What to give the IdP: our entity id and ACS, and the metadata behind the download link.
  await page.getByText(`${platform.baseUrl}/api/account/company/sso/metadata`, { exact: true }).waitFor();
  await page.getByText(`${platform.baseUrl}/api/account/company/sso/acs`, { exact: true }).waitFor();
  const href = await page.getByRole('link', { name: /Download the service provider metadata/ }).getAttribute('href');
  const metadata = await page.request.get(new URL(href!, platform.baseUrl).toString());
  expect(await metadata.text()).toContain(`entityID="${platform.baseUrl}/api/account/company/sso/metadata"`);
  // Nothing saved yet: the test waits for a save with SSO enabled.
  expect(await page.getByRole('button', { name: /Test sign-in/ }).isDisabled()).toBe(true);

  // The IdP's sign-in URL and certificate; an expired certificate is refused on its field first.
  await page.getByLabel('Identity provider sign-in URL').fill(idp.entryPoint);
  await page.getByLabel('Identity provider signing certificate (PEM)').fill('-----BEGIN CERTIFICATE-----\nnope');
  await page.getByRole('switch', { name: 'Enable single sign-on' }).check();
  await page.getByRole('button', { name: 'Save single sign-on' }).click();
  await page.getByText('This is not a certificate. Paste one PEM certificate.').waitFor();
  await page.getByLabel('Identity provider signing certificate (PEM)').fill(idp.certificate);
  await page.getByRole('button', { name: 'Save single sign-on' }).click();
  await page.getByText('Updated settings').waitFor();
  const saved = page.getByRole('region', { name: 'Saved certificate' });
  expect(await saved.innerText()).toContain('CN=idp.test');

  // Test sign-in: the real SP-initiated flow in a new tab, for the admin's own address.
  idp.signInAs(company.adminEmail);
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: /Test sign-in/ }).click(),
  ]);
  await popup.waitForURL(/\/company\/incidents$/, { timeout: 30_000 });
  await popup.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await popup.close();

  // Seen to work: now required of staff.
  await page.getByRole('switch', { name: 'Require single sign-on for staff' }).check();
  await page.getByRole('button', { name: 'Save single sign-on' }).click();
  await page.getByText('Updated settings').waitFor();
  await page.reload();
  expect(await page.getByRole('switch', { name: 'Require single sign-on for staff' }).isChecked()).toBe(true);

  // The reviewer's password no longer opens a session; the login page points to single sign-on.
  const reviewerContext = await browser.newContext();
  const reviewer = await reviewerContext.newPage();
  await reviewer.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(reviewer, reviewerEmail(), REVIEWER_PASSWORD);
  await reviewer.getByRole('alert').getByText('Your company requires single sign-on').waitFor();
  expect(await reviewer.evaluate(() => localStorage.getItem('token'))).toBeNull();
  // Through the IdP the reviewer gets in.
  idp.signInAs(reviewerEmail());
  await reviewer.getByRole('link', { name: /single sign-on/ }).click();
  await reviewer.getByLabel('Email').fill(reviewerEmail());
  await reviewer.getByRole('button', { name: 'Continue' }).click();
  await reviewer.waitForURL(/\/company\/incidents$/, { timeout: 30_000 });
  await reviewerContext.close();

  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the single sign-on and security pages are checked by axe-core in French, then there are no serious violations', async () => {
  // Admins keep their password while SSO is required: the break-glass way in.
  const { context, page } = await signInInFrench(browser, platform.baseUrl, company.adminEmail);
  for (const [path, heading] of [
    ['settings/sso', 'Authentification unique'],
    ['settings/security', 'Sécurité'],
  ]) {
    await page.goto(`${platform.baseUrl}/company/${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    expect([path, await seriousAccessibilityViolations(page)]).toEqual([path, []]);
  }
  await context.close();
});

test('when the admin requires MFA of all staff, then it is saved, and their own next sign-in goes to MFA set-up', async () => {
  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await signIn(page);
  await page.goto(`${platform.baseUrl}/company/settings/account`);
  await sidebarLink(page, 'Security').click();
  await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
  // Nobody has MFA yet, and the page says what will happen to them.
  await page.getByText('2 members have not set up multi-factor authentication yet').waitFor();
  await page.getByRole('switch', { name: 'Require multi-factor authentication for all staff' }).check();
  await page.getByRole('button', { name: 'Save security settings' }).click();
  await page.getByText('Updated settings').waitFor();
  expect(pageErrors).toEqual([]);
  await context.close();

  const again = await browser.newContext();
  const next = await again.newPage();
  await next.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(next, company.adminEmail, STAFF_PASSWORD);
  await next.waitForURL(/\/company\/settings\/account\/mfa$/);
  const company$ = await fetch(`${platform.baseUrl}/api/account/company/`, {
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${await apiToken(platform.baseUrl, company.adminEmail)}`,
    },
  });
  expect(((await company$.json()) as { mfa_required: boolean }).mfa_required).toBe(true);
  await again.close();
});
