import type { Browser, Page, Request } from 'playwright-core';
import { launchChromium, seriousAccessibilityViolations } from '../../src/browser';
import { passwordLinkIn, waitForMail } from '../../src/mailbox';
import { STAFF_PASSWORD, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import { startStandalone, type StandalonePlatform } from '../../src/standalone';

/**
 * Keys held by people, in Chromium through the shell (docs/security.md, "Keys"): the password never leaves the
 * page; the keys stay unlocked across a reload; a reset by e-mail signs in but opens nothing until the recovery kit
 * restores access.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startStandalone(), launchChromium()]);
  company = await onboardCompany(platform);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

const incidentsHeading = (page: Page) => page.getByRole('heading', { name: 'Incidents', level: 1 });

/** Everything a request carries that a server, a proxy or a log could see. */
function visible(request: Request): string {
  return [request.url(), JSON.stringify(request.headers()), request.postData() ?? ''].join('\n');
}

test('when an admin signs in, then no request carries the password, and the keys stay open across a reload', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sent: string[] = [];
  page.on('request', (request) => sent.push(visible(request)));
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await incidentsHeading(page).waitFor({ timeout: 60_000 });

  const login = sent.find((request) => request.includes('/api/account/token\n'));
  expect(login).toBeDefined();
  // What went instead: an authentication secret (v2.…), after the salt call.
  expect(login).toMatch(/"password":"v2\.[A-Za-z0-9_-]{43}"/);
  expect(sent.some((request) => request.includes('/api/account/token/salt'))).toBe(true);
  for (const request of sent) expect(request.includes(STAFF_PASSWORD)).toBe(false);
  // The keys are open: no unlock panel; and a reload does not ask again (they wait in this browser until sign-out).
  expect(await page.getByRole('heading', { name: 'Unlock access to reports' }).count()).toBe(0);
  await page.reload();
  await incidentsHeading(page).waitFor();
  await page.waitForTimeout(1000);
  expect(await page.getByRole('heading', { name: 'Unlock access to reports' }).count()).toBe(0);
  for (const request of sent) expect(request.includes(STAFF_PASSWORD)).toBe(false);
  await context.close();
});

test('when the admin resets the password by e-mail, then they sign in but the company key stays closed until the recovery kit restores it', async () => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const sent: string[] = [];
  page.on('request', (request) => sent.push(visible(request)));
  await page.goto(`${platform.baseUrl}/company/password/reset`);
  await page.getByLabel('Email').fill(company.adminEmail);
  await page.getByRole('button', { name: 'Send instructions' }).click();
  const link = passwordLinkIn(await waitForMail(platform.dataDir, company.adminEmail, /Reset your Whistle password/));
  const newPassword = 'a brand new password 2026';
  await page.goto(link);
  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Repeat password').fill(newPassword);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your password has been set.').waitFor({ timeout: 60_000 });
  await page.getByText('your access to reports must be restored after you log in').waitFor();

  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, newPassword);
  await incidentsHeading(page).waitFor({ timeout: 60_000 });
  // Signed in, and told plainly that the reports do not open until access is restored.
  await page.getByRole('heading', { name: 'Your access to reports must be restored' }).waitFor({ timeout: 30_000 });
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // A wrong kit: a clear message, nothing changes.
  await page.getByLabel('Recovery key').fill('ABCDE FGHIJ KMNPQ');
  await page.getByRole('button', { name: 'Restore access' }).click();
  await page.getByText('This is not a valid recovery key: check each group of characters.').waitFor();

  // The kit printed at onboarding, typed in lower case: access is back.
  await page.getByLabel('Recovery key').fill(company.recoveryKit.toLowerCase());
  await page.getByRole('button', { name: 'Restore access' }).click();
  await page
    .getByRole('heading', { name: 'Your access to reports must be restored' })
    .waitFor({ state: 'detached', timeout: 30_000 });
  for (const request of sent) {
    expect(request.includes(newPassword)).toBe(false);
    expect(request.includes(company.recoveryKit)).toBe(false);
  }
  await context.close();
});
