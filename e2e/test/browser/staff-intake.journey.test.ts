import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CompanyPublicView } from '@whistle/contracts';
import { openWatchedPage, seriousAccessibilityViolations, type WatchedPage } from '../../src/browser';
import { dumpDatabase, readTree } from '../../src/database-dump';
import { publicView } from '../../src/reports';
import {
  STAFF_PASSWORD,
  acceptInvitation,
  apiToken,
  invite,
  onboardCompany,
  submitLogin,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Reports taken by staff (issue 26 item 2, directive art. 18), end to end in Chromium on the standalone platform.
 * The admin records a telephone report whose transcript holds a canary, and reads the reporter's code, shown once.
 * The reporter opens the review page with that code, sees the record notice, approves the record and writes a
 * correction to the team; the case page then shows who recorded it and that the reporter approved it. A handler who
 * was never granted the company key records one too and opens it (through the grant their page wrapped to their own
 * key). The intake and review pages pass axe-core. Last, with the platform stopped, the canary is in no table, stored
 * object, mail or log line.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
let view: CompanyPublicView;
const contexts: BrowserContext[] = [];
const watched: WatchedPage[] = [];
const CANARY = `cnry${randomBytes(6).toString('hex')}`;
const TRANSCRIPT = `Caller said the invoices ${CANARY} were paid twice to a shell company`;
const HANDLER_TRANSCRIPT = `Told in a meeting: ${CANARY} the inspection was never carried out`;
const CORRECTION = `Correction ${CANARY}: it was three invoices, not two`;
const HANDLER_PASSWORD = 'handler passphrase 1234';

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
  view = await publicView(platform.baseUrl, company.urlIdentifier);
});
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await platform?.dispose();
});

/** A page in a context of its own; CSP bypassed so that axe-core can be injected. */
async function watchedPage(): Promise<WatchedPage> {
  const context = await browser.newContext({ bypassCSP: true });
  contexts.push(context);
  const opened = await openWatchedPage(context, platform.baseUrl);
  watched.push(opened);
  return opened;
}

async function signIn(page: Page, email: string, password: string, heading: string): Promise<void> {
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, email, password);
  await page.getByRole('heading', { name: heading }).waitFor();
}

/** Fills the intake page and sends it; answers the reporter's code as shown (groups joined) and the case's address. */
async function recordReport(page: Page, channel: 'Telephone' | 'In a meeting', transcript: string) {
  await page.goto(`${platform.baseUrl}/company/incidents/record`);
  await page.getByRole('heading', { name: 'Record a report', level: 1 }).waitFor();
  const channels = page.getByRole('group', { name: 'How was the report made?' });
  await channels.getByRole('radio', { name: channel }).check();
  await page.getByRole('checkbox', { name: view.categories[0]!.name, exact: true }).check();
  await page.getByRole('combobox', { name: /Location/ }).selectOption({ label: view.locations[0]!.name });
  await page.getByRole('textbox', { name: /Description/ }).fill(transcript);
  await page.getByRole('button', { name: 'Record the report' }).click();
  await page.getByRole('heading', { name: 'The report is recorded' }).waitFor({ timeout: 30_000 });
  const shown = await page.getByRole('group', { name: "Reporter's secret code" }).locator('.record-code__value');
  const code = (await shown.innerText()).replace(/\s/g, '');
  expect(code).toMatch(/^[0-9a-f]+:[0-9a-z]{4}(-[0-9a-z]{4}){6}$/);
  await page.getByRole('link', { name: 'Open the case' }).click();
  await page.getByRole('heading', { name: /^Report #\d+$/, level: 1 }).waitFor();
  return { code, caseUrl: page.url() };
}

test('when staff record a telephone report, then the reporter approves it with the code and corrects it, and the case shows it', async () => {
  const admin = await watchedPage();
  await signIn(admin.page, company.adminEmail, STAFF_PASSWORD, 'Incidents');
  await admin.page.getByRole('link', { name: 'Record a report' }).click();
  await admin.page.getByRole('heading', { name: 'Record a report', level: 1 }).waitFor();
  expect(await seriousAccessibilityViolations(admin.page)).toEqual([]);
  const { code, caseUrl } = await recordReport(admin.page, 'Telephone', TRANSCRIPT);
  const report = admin.page.getByRole('region', { name: 'Report' });
  await report.getByText(TRANSCRIPT).waitFor();
  await admin.page.getByText(/Recorded by Ada Lovelace from a telephone call/).waitFor();
  await admin.page.getByText('Not yet approved by the reporter').waitFor();
  // The code was shown once: the case page does not hold it.
  expect(await admin.page.content()).not.toContain(code.split(':')[1]);

  // The reporter, with the code passed on, opens the record.
  const reporter = await watchedPage();
  await reporter.page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await reporter.page.getByRole('button', { name: 'Check incident status' }).click();
  await reporter.page.locator('input[name="uniquePassword"]').fill(code);
  await reporter.page.locator('form.disclose-status button[type="submit"]').click();
  await reporter.page.getByRole('heading', { name: /^Report \d+$/ }).waitFor({ timeout: 30_000 });
  await reporter.page.getByText('This report was recorded by the case team from your telephone call.').waitFor();
  await reporter.page.getByText(TRANSCRIPT).waitFor();
  expect(await seriousAccessibilityViolations(reporter.page)).toEqual([]);
  await reporter.page.getByRole('button', { name: 'Approve the record' }).click();
  await reporter.page.getByText(/^You approved this record on /).waitFor();
  // The correction path: a message to the team, like any reporter's.
  await reporter.page.locator('textarea[name="text"]').fill(CORRECTION);
  await reporter.page.locator('.wh-reply button[type="submit"]:enabled').click();
  await reporter.page.locator('.wh-message').getByText(CORRECTION).waitFor({ timeout: 30_000 });

  // The case shows who recorded it, that the reporter approved it, and the reporter's correction.
  await admin.page.goto(caseUrl);
  await admin.page.getByText(/Recorded by Ada Lovelace from a telephone call/).waitFor();
  await admin.page.getByText('Approved by the reporter', { exact: false }).first().waitFor();
  expect(await admin.page.getByText('Not yet approved by the reporter').count()).toBe(0);
  await admin.page.getByText(CORRECTION).waitFor({ timeout: 30_000 });
});

test('when a handler without the company key records a report, then they open it through their own grant', async () => {
  const handlerEmail = `hank@${company.domain}`;
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: handlerEmail,
    full_name: 'Hank Handler',
    roles: ['HANDLER'],
  });
  const handler = await watchedPage();
  await acceptInvitation(handler.page, platform.dataDir, handlerEmail, HANDLER_PASSWORD);
  // Nobody grants Hank the company key.
  await signIn(handler.page, handlerEmail, HANDLER_PASSWORD, 'You have no access to reports yet');

  await recordReport(handler.page, 'In a meeting', HANDLER_TRANSCRIPT);
  await handler.page.getByRole('region', { name: 'Report' }).getByText(HANDLER_TRANSCRIPT).waitFor();
  await handler.page.getByText(/Recorded by Hank Handler from a meeting/).waitFor();
});

test('when the journeys are over, then no page failed and nothing went to another origin', () => {
  for (const { pageErrors, foreignRequests } of watched) {
    expect(pageErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
  }
});

test('when the platform stops, then the transcripts’ canary is in no table, object, mail or log line', async () => {
  await platform.stop();
  const tables = await dumpDatabase(platform.dataDir);
  // The dump is real: the recorded reports are in it, encrypted.
  expect(tables).toContain('incident.incident');
  expect(tables).toContain('incident.incident_field');
  expect(tables).toContain('v2.');
  expect(tables).not.toContain(CANARY);
  for (const { file, bytes } of [
    ...(await readTree(path.join(platform.dataDir, 'objects'))),
    ...(await readTree(path.join(platform.dataDir, 'mail'))),
  ])
    expect({ file, found: bytes.includes(CANARY) }).toEqual({ file, found: false });
  const output = platform.process.output();
  expect(output.length).toBeGreaterThan(0);
  expect(output).not.toContain(CANARY);
});
