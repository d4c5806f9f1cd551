import type { Browser, Page, Request } from 'playwright-core';
import { launchChromium, seriousAccessibilityViolations } from '../../src/browser';
import { postJson } from '../../src/company-fixtures';
import { passwordLinkIn, waitForMail } from '../../src/mailbox';
import { publicView, reportBody } from '../../src/reports';
import { STAFF_PASSWORD, apiToken, invite, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import { startStandalone, type StandalonePlatform } from '../../src/standalone';

/**
 * Keys held by people, in Chromium through the shell (docs/security.md, "Keys"): the password never leaves the
 * page; the keys stay unlocked across a reload; a new reviewer reads reports only once an admin approved them after
 * comparing fingerprints; a reset by e-mail signs in but opens nothing until the recovery kit restores access.
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

test('when a reviewer joins, then reports stay closed to them until they ask and an admin approves after comparing fingerprints', async () => {
  const description = 'Safety checks signed off without an inspection';
  const view = await publicView(platform.baseUrl, company.urlIdentifier);
  const filed = await postJson(platform.baseUrl, '/api/incident/', await reportBody(view, { description }));
  expect(filed.status).toBe(201);
  const reviewerEmail = `rita@${company.domain}`;
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: reviewerEmail,
    full_name: 'Rita Reviewer',
    roles: ['REVIEWER'],
  });

  // The reviewer sets a password (their keys are made there) and signs in: no report opens, and the page says why.
  const reviewerContext = await browser.newContext();
  const reviewer = await reviewerContext.newPage();
  await reviewer.goto(passwordLinkIn(await waitForMail(platform.dataDir, reviewerEmail, /invited/)));
  await reviewer.getByLabel('New password', { exact: true }).fill(STAFF_PASSWORD);
  await reviewer.getByLabel('Repeat password', { exact: true }).fill(STAFF_PASSWORD);
  await reviewer.getByRole('button', { name: 'Set password' }).click();
  await reviewer.getByText('Your password has been set.').waitFor({ timeout: 60_000 });
  await reviewer.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(reviewer, reviewerEmail, STAFF_PASSWORD);
  await reviewer.getByRole('heading', { name: 'You have no access to reports yet' }).waitFor({ timeout: 60_000 });
  const fingerprint = (await reviewer.locator('.shell-keys-panel__fingerprint').innerText()).trim();
  expect(fingerprint).toMatch(/^[0-9A-Z]{4}( [0-9A-Z]{4}){4}$/);
  await reviewer.getByRole('button', { name: 'Request access' }).click();
  await reviewer.getByText(/Access requested/).waitFor();

  // The admin sees someone waits, compares the fingerprint the reviewer reads out, and approves.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(admin, company.adminEmail, STAFF_PASSWORD);
  await admin.getByText('1 team member is waiting for access to reports.').waitFor({ timeout: 60_000 });
  await admin.getByRole('link', { name: 'Compare their fingerprints and approve' }).click();
  const requests = admin.getByRole('region', { name: 'Report access' });
  await requests.getByText(fingerprint).first().waitFor({ timeout: 30_000 });
  await admin.getByRole('button', { name: 'Approve Rita Reviewer' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByText(fingerprint).waitFor();
  await dialog.getByLabel('Rita Reviewer read me exactly this fingerprint').check();
  await dialog.getByRole('button', { name: 'Grant access' }).click();
  await admin.getByText('Rita Reviewer now has access to reports.').waitFor({ timeout: 30_000 });

  // The reviewer's page picks the key up, and the report opens in their browser.
  await reviewer
    .getByRole('heading', { name: 'You have no access to reports yet' })
    .waitFor({ state: 'detached', timeout: 30_000 });
  await reviewer.goto(`${platform.baseUrl}/company/incidents`);
  await reviewer
    .getByRole('row')
    .filter({ has: reviewer.getByRole('link') })
    .first()
    .getByRole('link')
    .first()
    .click();
  await reviewer.getByRole('heading', { name: /^Report #\d+$/, level: 1 }).waitFor();
  await reviewer.getByRole('region', { name: 'Report' }).getByText(description).waitFor({ timeout: 30_000 });
  await Promise.all([reviewerContext.close(), adminContext.close()]);
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
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat password', { exact: true }).fill(newPassword);
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
