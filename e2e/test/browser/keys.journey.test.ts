import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { seriousAccessibilityViolations } from '../../src/browser';
import { postJson } from '../../src/company-fixtures';
import { passwordLinkIn, waitForMail } from '../../src/mailbox';
import { publicView, reportBody } from '../../src/reports';
import {
  STAFF_PASSWORD,
  apiToken,
  browserToken,
  invite,
  keysKept,
  onboardCompany,
  chooseRowAction,
  submitLogin,
  until,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Keys held by people, in Chromium through the shell (docs/security.md, "Keys"): the password never leaves the
 * page; the keys stay unlocked across a reload; a new reviewer or a second admin reads reports only once an admin
 * approved them after comparing fingerprints (which also confirms their key for the reporters' pages), and the second admin loses the key with the ADMIN role; a reset by
 * e-mail signs in but opens nothing until the recovery kit restores access.
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
  // The derivation runs in its worker: a worker refused by the CSP or Trusted Types would leave the sign-in undone
  // (it does not fall back to the page) and say so in the console or as a page error.
  const workers: string[] = [];
  const refusals: string[] = [];
  page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
  page.on('pageerror', (error) => refusals.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy|Trusted Type|Refused to/i.test(message.text())) refusals.push(message.text());
  });
  // The company's keys held back until the reload below: the list is drawn and the person's keys are not kept yet,
  // the moment in which a reload used to find them locked and ask for the password again.
  let holdCompanyKeys = true;
  await page.route('**/api/account/company/keys', (route) => (holdCompanyKeys ? undefined : route.continue()));
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await incidentsHeading(page).waitFor({ timeout: 60_000 });

  const login = sent.find((request) => request.includes('/api/account/token\n'));
  expect(login).toBeDefined();
  // What went instead: an authentication secret (v2.…), after the salt call.
  expect(login).toMatch(/"password":"v2\.[A-Za-z0-9_-]{43}"/);
  expect(sent.some((request) => request.includes('/api/account/token/salt'))).toBe(true);
  for (const request of sent) expect(request.includes(STAFF_PASSWORD)).toBe(false);
  expect(workers).toContainEqual(expect.stringMatching(/^\/whistle-staff-secrets\.[0-9a-f]{8}\.js$/));
  expect(refusals).toEqual([]);
  // No unlock panel. A reload while the keys still open does not ask again: what the password derived waits in this
  // browser until the keys it opened are kept, and those until sign-out.
  expect(await page.getByRole('heading', { name: 'Unlock access to reports' }).count()).toBe(0);
  holdCompanyKeys = false;
  await page.reload();
  await incidentsHeading(page).waitFor();
  await keysKept(page);
  expect(await page.getByRole('heading', { name: 'Unlock access to reports' }).count()).toBe(0);
  for (const request of sent) expect(request.includes(STAFF_PASSWORD)).toBe(false);
  await context.close();
});

/** A fresh browser context signed in as `email` on the login page (the sign-in derives the keys: slow). */
async function signedIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, email, STAFF_PASSWORD);
  return { context, page };
}

/** An invited member sets their password from the invitation e-mail (their keys are made there), then signs in. */
async function acceptInvitation(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(passwordLinkIn(await waitForMail(platform.dataDir, email, /invited/)));
  await page.getByLabel('New password', { exact: true }).fill(STAFF_PASSWORD);
  await page.getByLabel('Repeat password', { exact: true }).fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your password has been set.').waitFor({ timeout: 60_000 });
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, email, STAFF_PASSWORD);
  return { context, page };
}

/** The member's page says why no report opens (`heading`); they ask for access. Answers the fingerprint it showed. */
async function requestAccess(page: Page, heading: string): Promise<string> {
  await page.getByRole('heading', { name: heading }).waitFor({ timeout: 60_000 });
  const fingerprint = (await page.locator('.shell-keys-panel__fingerprint').innerText()).trim();
  expect(fingerprint).toMatch(/^[0-9A-Z]{4}( [0-9A-Z]{4}){4}$/);
  await page.getByRole('button', { name: 'Request access' }).click();
  await page.getByText(/Access requested/).waitFor();
  return fingerprint;
}

/**
 * The signed-in admin's page (loaded after the request) tells them someone waits; on the security page they compare
 * the fingerprint the member reads out with the request's and the dialog's, and grant access.
 */
async function approveAccess(admin: Page, fullName: string, fingerprint: string): Promise<void> {
  await admin.getByText('1 team member is waiting for access to reports.').waitFor({ timeout: 60_000 });
  await admin.getByRole('link', { name: 'Compare their fingerprints and approve' }).click();
  const request = admin.getByRole('region', { name: 'Report access' }).getByRole('article', { name: fullName });
  expect((await request.locator('.settings-fingerprint').innerText()).trim()).toBe(fingerprint);
  await admin.getByRole('button', { name: `Approve ${fullName}` }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByText(fingerprint).waitFor();
  await dialog.getByLabel(`${fullName} read me exactly this fingerprint`).check();
  await dialog.getByRole('button', { name: 'Grant access' }).click();
  await admin.getByText(`${fullName} now has access to reports.`).waitFor({ timeout: 30_000 });
}

/** A report filed through the API as the discloser's browser files it; its uuid. */
async function fileReport(description: string): Promise<string> {
  const view = await publicView(platform.baseUrl, company.urlIdentifier);
  const filed = await postJson(platform.baseUrl, '/api/incident/', await reportBody(view, { description }));
  expect(filed.status).toBe(201);
  return ((await filed.json()) as { uuid: string }).uuid;
}

/** The member's page has picked the key up (`heading` gone): the case opens with its decrypted `description`. */
async function readCase(page: Page, heading: string, incidentUuid: string, description: string): Promise<void> {
  await page.getByRole('heading', { name: heading }).waitFor({ state: 'detached', timeout: 30_000 });
  await page.goto(`${platform.baseUrl}/company/incidents/${incidentUuid}`);
  await page.getByRole('heading', { name: /^Report #\d+$/, level: 1 }).waitFor();
  await page.getByRole('region', { name: 'Report' }).getByText(description).waitFor({ timeout: 30_000 });
}

const getWith = (token: string, path: string) =>
  fetch(`${platform.baseUrl}${path}`, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });

/** GET /api/account/company/keys as the holder of `token` sees it: the grant the server hands their browser. */
async function companyKeysWith(token: string): Promise<{ status: number; grant?: string | null }> {
  const response = await getWith(token, '/api/account/company/keys');
  if (!response.ok) return { status: response.status };
  return { status: response.status, grant: ((await response.json()) as { grant: string | null }).grant };
}

/** The status of GET `path` with `token` once it is `expected`, asking again for a while (events travel). */
async function statusBecomes(token: string, path: string, expected: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { status } = await getWith(token, path);
    if (status === expected || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const NO_ACCESS_YET = 'You have no access to reports yet';
const ACCESS_TO_RESTORE = 'Your access to reports must be restored';

test('when a reviewer joins, then reports stay closed to them until they ask and an admin approves after comparing fingerprints', async () => {
  const description = 'Safety checks signed off without an inspection';
  const incident = await fileReport(description);
  const reviewerEmail = `rita@${company.domain}`;
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: reviewerEmail,
    full_name: 'Rita Reviewer',
    roles: ['REVIEWER'],
  });

  // The reviewer sets a password and signs in: no report opens, and the page says why; they ask.
  const reviewer = await acceptInvitation(reviewerEmail);
  const fingerprint = await requestAccess(reviewer.page, NO_ACCESS_YET);

  // The admin sees someone waits, compares the fingerprint the reviewer reads out, and approves.
  const admin = await signedIn(company.adminEmail);
  await approveAccess(admin.page, 'Rita Reviewer', fingerprint);
  // The same comparison confirmed her key for the reporters' pages: signed in the admin's browser, checked and
  // stored by auth, and served to disclosers (docs/security.md, "Signed staff messages").
  const rita = admin.page.getByRole('row').filter({ hasText: 'Rita Reviewer' });
  await rita.getByRole('cell', { name: 'Confirmed', exact: true }).waitFor();
  await until(async () =>
    Boolean(
      (await publicView(platform.baseUrl, company.urlIdentifier)).key_endorsements?.some(
        (endorsement) => endorsement.role === 'REVIEWER',
      ),
    ),
  );

  // The reviewer's page picks the key up, and the report opens in their browser.
  await readCase(reviewer.page, NO_ACCESS_YET, incident, description);
  await Promise.all([reviewer.context.close(), admin.context.close()]);
});

const SECOND_ADMIN = 'Bea Admin';
/** The second admin's browser, signed in and holding the key after the first journey; the next one takes it away. */
let secondAdmin: { context: BrowserContext; page: Page; email: string; incident: string } | undefined;

test('a second admin invited, approved by the first (fingerprint shown), reads the report', async () => {
  const description = 'Overtime paid to a supplier that does not exist';
  const incident = await fileReport(description);
  const email = `bea@${company.domain}`;

  // The first admin invites her from the Team page, as an admin only.
  const first = await signedIn(company.adminEmail);
  await incidentsHeading(first.page).waitFor({ timeout: 60_000 });
  await first.page.getByRole('link', { name: 'Team', exact: true }).click();
  await first.page.getByRole('link', { name: 'Invite a member' }).click();
  await first.page.getByLabel('Email').fill(email);
  await first.page.getByLabel('Name', { exact: true }).fill(SECOND_ADMIN);
  await first.page.getByLabel('Handler', { exact: true }).uncheck();
  await first.page.getByLabel('Admin', { exact: true }).check();
  await first.page.getByRole('button', { name: 'Send invitation' }).click();
  await first.page.getByText(`Invitation sent to ${email}`).waitFor();

  // Her keys are new, so the company key does not open for her: the page says so, with her fingerprint; she asks.
  const second = await acceptInvitation(email);
  const fingerprint = await requestAccess(second.page, ACCESS_TO_RESTORE);

  // The first admin's page tells of the request; the fingerprint shown to them is the one she reads out.
  await first.page.goto(`${platform.baseUrl}/company/incidents`);
  await approveAccess(first.page, SECOND_ADMIN, fingerprint);
  await first.context.close();

  await readCase(second.page, ACCESS_TO_RESTORE, incident, description);
  secondAdmin = { ...second, email, incident };
});

test("removal of the ADMIN role ends that person's access to the key", async () => {
  if (!secondAdmin) throw new Error('The second admin journey did not get this far');
  const { page, email, incident } = secondAdmin;
  const oldToken = (await browserToken(page))!;
  expect((await companyKeysWith(oldToken)).grant).toEqual(expect.any(String));
  expect((await getWith(oldToken, `/api/incident/${incident}`)).status).toBe(200);

  // The first admin leaves her a reviewer.
  const first = await signedIn(company.adminEmail);
  await incidentsHeading(first.page).waitFor({ timeout: 60_000 });
  await first.page.getByRole('link', { name: 'Team', exact: true }).click();
  await chooseRowAction(first.page, SECOND_ADMIN, 'Change roles');
  const dialog = first.page.getByRole('dialog');
  await dialog.getByLabel('Admin', { exact: true }).uncheck();
  await dialog.getByLabel('Reviewer', { exact: true }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await first.page.getByText('Updated roles').waitFor();
  await first.context.close();

  // Her session ended with the change; she signs in again, and the server hands her browser no grant any more.
  expect((await companyKeysWith(oldToken)).status).toBe(401);
  // Nor does the case API serve that session the case's wrapped keys any more (the revocation reaches it by event).
  expect(await statusBecomes(oldToken, `/api/incident/${incident}`, 401)).toBe(401);
  await page.reload();
  await page.waitForURL(/\/company\/login/);
  const keysAnswer = page.waitForResponse(
    (response) => response.url().endsWith('/api/account/company/keys') && response.request().method() === 'GET',
    { timeout: 60_000 },
  );
  await submitLogin(page, email, STAFF_PASSWORD);
  const answer = await keysAnswer;
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { grant: string | null }).grant).toBeNull();
  expect(await companyKeysWith((await browserToken(page))!)).toEqual({ status: 200, grant: null });

  // The page says reports are closed to her until an admin grants access again, and the case stays locked.
  await page.getByRole('heading', { name: NO_ACCESS_YET }).waitFor({ timeout: 60_000 });
  await page.goto(`${platform.baseUrl}/company/incidents/${incident}`);
  await page.getByRole('heading', { name: 'This case is locked' }).waitFor({ timeout: 30_000 });
  await secondAdmin.context.close();
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
