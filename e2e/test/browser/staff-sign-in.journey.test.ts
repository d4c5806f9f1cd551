import type { Browser, Page } from 'playwright-core';
import { seriousAccessibilityViolations } from '../../src/browser';
import { waitForMail, passwordLinkIn } from '../../src/mailbox';
import {
  STAFF_PASSWORD,
  apiToken,
  invite,
  keysKept,
  onboardCompany,
  submitLogin,
  totpCode,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Staff sign-in in Chromium through the shell, the company frame and the settings and incidents
 * remotes: login, MFA set-up, logout, login with MFA, password reset by e-mail link, a reviewer's
 * narrower app. One platform for the file; each test has its own company and browser context.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

async function newPage(): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, pageErrors };
}

const incidentsHeading = (page: Page) => page.getByRole('heading', { name: 'Incidents', level: 1 });

test('when an admin signs in, enables MFA, logs out and signs in again with a code, then the incidents page opens each time', async () => {
  const { page, pageErrors } = await newPage();

  // The guard sends a signed-out visitor to login, keeping where they wanted to go.
  await page.goto(`${platform.baseUrl}/company/settings/account`);
  await page.waitForURL(/\/company\/login\?next=%2Fcompany%2Fsettings%2Faccount$/);
  await submitLogin(page, company.adminEmail, 'not the password');
  await page.getByText('Invalid email or password').waitFor();
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.waitForURL(/\/company\/settings\/account$/);
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  expect(await page.getByLabel('Email').inputValue()).toBe(company.adminEmail);
  expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();

  // Admin navigation and avatar (initials of 'Ada Lovelace').
  await page.getByRole('link', { name: 'Team' }).waitFor();
  await page.getByRole('link', { name: 'Reporting', exact: true }).waitFor();
  expect(
    await page
      .getByRole('button', { name: /Account menu of Ada Lovelace/ })
      .locator('[aria-hidden="true"]')
      .textContent(),
  ).toBe('AL');

  // The company private key is unlocked in memory; storage holds only the token (and maybe the language).
  const stored = await page.evaluate(() => Object.keys(localStorage).sort());
  expect(stored.filter((key) => key !== 'i18n-language')).toEqual(['token']);

  // MFA set-up: warning, QR code, a wrong code keeps the same QR code with error styling, the right one enables it.
  await page.getByRole('button', { name: 'Enable' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('existing MFA devices invalid').waitFor();
  const [setupResponse] = await Promise.all([
    page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/account/company/profile/mfa') && response.request().method() === 'POST',
    ),
    dialog.getByRole('button', { name: 'Proceed' }).click(),
  ]);
  const { secret, qr_code } = (await setupResponse.json()) as { secret: string; qr_code: string };
  await dialog.locator(`img[src="${qr_code}"]`).waitFor();
  const wrong = (await totpCode(secret)) === '000000' ? '111111' : '000000';
  await dialog.getByLabel('6-digit code').fill(wrong);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.locator('input[name="challenge_code"][aria-invalid="true"]').waitFor();
  await dialog.locator(`img[src="${qr_code}"]`).waitFor();
  await dialog.getByLabel('6-digit code').fill(await totpCode(secret));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Updated account').waitFor();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Update MFA' }).waitFor();

  // Updating the name shows the toast and the new initials.
  await page.getByLabel('Full name').fill('Ada King Lovelace');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: /Account menu of Ada King Lovelace/ }).waitFor();

  // Logout revokes the token, clears it and goes to the root (the login page).
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page.getByRole('button', { name: /Account menu of/ }).click();
  await page.getByText('Admin', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(`${platform.baseUrl}/`);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  const revoked = await fetch(`${platform.baseUrl}/api/account/company/profile/`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(revoked.status).toBe(401);

  // Sign-in again asks for the code; a wrong one marks the box red, the right one (sent at 6 digits) opens incidents.
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.waitForURL(/\/company\/login\/mfa/);
  // A reload before the code keeps what the password derived (IndexedDB): the keys open after it without asking.
  await page.reload();
  const codeBox = page.getByLabel('Authentication code');
  await codeBox.fill(wrong);
  await page.locator('input[name="challenge_code"][aria-invalid="true"]').waitFor();
  await codeBox.fill(await totpCode(secret, 1));
  await page.waitForURL(/\/company\/incidents$/);
  await incidentsHeading(page).waitFor();
  await keysKept(page);
  expect(await page.getByRole('heading', { name: 'Unlock access to reports' }).count()).toBe(0);
  expect(await page.getByLabel('Employees’ disclosure link').inputValue()).toBe(
    `${platform.baseUrl}/disclose/${company.urlIdentifier}`,
  );

  expect(pageErrors).toEqual([]);
  await page.context().close();
});

test('when a staff member forgets the password, then the e-mailed link sets a new one that signs in', async () => {
  const { page, pageErrors } = await newPage();
  const { adminEmail } = await onboardCompany(platform);

  await page.goto(`${platform.baseUrl}/company/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL(/\/company\/password\/reset$/);
  await page.getByLabel('Email').fill(adminEmail);
  await page.getByRole('button', { name: 'Send instructions' }).click();
  await page.getByText('an email with instructions has been sent').waitFor();

  const link = passwordLinkIn(await waitForMail(platform.dataDir, adminEmail, /Reset your Whistle password/));
  await page.goto(link);
  await page.locator('input[name="password"]').fill('a brand new passphrase');
  await page.locator('input[name="repeat_password"]').fill('another passphrase');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Passwords do not match').waitFor();
  await page.locator('input[name="repeat_password"]').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your password has been set.').waitFor();

  // The link works once.
  await page.goto(link);
  await page.locator('input[name="password"]').fill('yet another passphrase');
  await page.locator('input[name="repeat_password"]').fill('yet another passphrase');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Failed to reset password').waitFor();

  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, adminEmail, 'a brand new passphrase');
  await page.waitForURL(/\/company\/incidents$/);
  await incidentsHeading(page).waitFor();

  expect(pageErrors).toEqual([]);
  await page.context().close();
});

test('when an invited reviewer sets a password and signs in, then Team and Reporting are absent and admin pages redirect', async () => {
  const { page, pageErrors } = await newPage();
  const admin = await onboardCompany(platform);
  const reviewerEmail = `grace@${admin.domain}`;
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, admin.adminEmail), {
    email: reviewerEmail,
    full_name: 'Grace Brewster Hopper',
    roles: ['REVIEWER'],
  });

  await page.goto(passwordLinkIn(await waitForMail(platform.dataDir, reviewerEmail, /invited/)));
  await page.locator('input[name="password"]').fill(STAFF_PASSWORD);
  await page.locator('input[name="repeat_password"]').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('link', { name: 'Log in' }).click();
  await submitLogin(page, reviewerEmail, STAFF_PASSWORD);
  await page.waitForURL(/\/company\/incidents$/);
  await incidentsHeading(page).waitFor();

  const navigation = page.getByRole('navigation', { name: 'Main' });
  expect(await navigation.getByRole('link').allTextContents()).toEqual(['Incidents']);
  const avatar = page.getByRole('button', { name: /Account menu of Grace Brewster Hopper/ });
  expect(await avatar.locator('[aria-hidden="true"]').textContent()).toBe('GH');
  await avatar.click();
  await page.getByText('Reviewer', { exact: true }).waitFor();

  await page.goto(`${platform.baseUrl}/company/settings/company`);
  await page.waitForURL(/\/company\/settings\/account$/);
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  await page.goto(`${platform.baseUrl}/company/team`);
  await page.waitForURL(/\/company\/incidents$/);
  await incidentsHeading(page).waitFor();

  expect(pageErrors).toEqual([]);
  await page.context().close();
});

test('when staff pages are checked with axe-core, then none has serious accessibility violations', async () => {
  // axe-core is injected as an inline script, which the page's CSP rightly refuses: bypass it for this check only.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const { adminEmail } = await onboardCompany(platform);

  await page.goto(`${platform.baseUrl}/company/login`);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await submitLogin(page, adminEmail, STAFF_PASSWORD);
  await incidentsHeading(page).waitFor();
  await page.getByLabel('Employees’ disclosure link').waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await context.close();
});
