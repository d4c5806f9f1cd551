import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openWatchedPage, type WatchedPage } from '../../src/browser';
import { postJson } from '../../src/company-fixtures';
import { publicView, reportBody } from '../../src/reports';
import {
  STAFF_PASSWORD,
  acceptInvitation,
  apiToken,
  approveReportAccess,
  invite,
  signInToCases,
  onboardCompany,
  until,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Who sees which case, end to end in Chromium on the standalone platform. Three reports come in; the admin
 * invites a handler, who sets a password from the invitation e-mail and signs in; the admin assigns two of the
 * cases to them on the case page. The handler's list, case pages and CSV export then hold exactly their two
 * cases (the third one's address says "Case not found"). The admin then excludes the handler from one of them
 * (conflict of interest) on its case page: it leaves the handler's list, page and export. A second handler, who was
 * never granted the company key, is assigned Carol's case too: the admin's page wraps that case's passphrase to her
 * key (a per-case grant, docs/security.md), and she reads that case, and only that one, through it; unassigned, she
 * no longer can.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
const HANDLER_PASSWORD = 'handler passphrase 1234';
const contexts: BrowserContext[] = [];

/** The three reports: description and reporter name, as the discloser's browser encrypts them. */
const REPORTS = [
  { description: 'Invoices paid twice to a shell company', full_name: 'Alice Assigned' },
  { description: 'The safety inspection was never carried out', full_name: 'Bob Unassigned' },
  { description: 'Overtime recorded but never paid', full_name: 'Carol Assigned' },
] as const;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
  const view = await publicView(platform.baseUrl, company.urlIdentifier);
  for (const fields of REPORTS) {
    const response = await postJson(platform.baseUrl, '/api/incident/', {
      ...(await reportBody(view, { ...fields })),
      report_anonymously: false,
    });
    if (response.status !== 201) throw new Error(`The report answered ${response.status}: ${await response.text()}`);
  }
});
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await platform?.dispose();
});

async function watchedPage(): Promise<WatchedPage> {
  const context = await browser.newContext({ acceptDownloads: true });
  contexts.push(context);
  return openWatchedPage(context, platform.baseUrl);
}

/** Signs in; the journey reloads the list next, so it waits for the kept keys. */
const signIn = (page: Page, email: string, password: string) => signInToCases(page, platform.baseUrl, email, password);

/** The list's row of a reporter (the Identity column, decrypted in this browser). */
const rowOf = (page: Page, reporter: string) => page.getByRole('row').filter({ hasText: reporter });

/** The list as the page shows it: the reporters of its rows, once the count and the names are there. */
async function listedReporters(page: Page, count: number): Promise<string[]> {
  await page.goto(`${platform.baseUrl}/company/incidents`);
  await page.getByText(count === 1 ? '1 case' : `${count} cases`, { exact: true }).waitFor();
  const names = REPORTS.map((report) => report.full_name);
  const rows = page.getByRole('row').filter({ has: page.getByRole('link') });
  // Every row is there and its identity decrypted (not a placeholder) before the list is read.
  const decrypted = async () =>
    (await rows.allInnerTexts()).filter((text) => names.some((name) => text.includes(name))).length;
  await until(async () => (await rows.count()) === count && (await decrypted()) === count);
  const texts = await rows.allInnerTexts();
  return names.filter((name) => texts.some((text) => text.includes(name)));
}

/** The case page of a reporter's case, opened from the list: its address. */
async function openFromList(page: Page, reporter: string): Promise<string> {
  await rowOf(page, reporter).getByRole('link').first().click();
  await page.getByRole('heading', { name: /^Report #\d+$/, level: 1 }).waitFor();
  return page.url();
}

/** The CSV the list's 'Export CSV' downloads. */
async function exportCsv(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  return readFile((await download.path())!, 'utf8');
}

/** What a case page shows when it may not be seen: the not-found message, and none of the case. */
async function expectNotFound(page: Page, url: string, hidden: (typeof REPORTS)[number]): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { name: 'Case not found' }).waitFor();
  expect(await page.getByRole('heading', { name: /^Report #/ }).count()).toBe(0);
  const content = await page.content();
  expect(content).not.toContain(hidden.description);
  expect(content).not.toContain(hidden.full_name);
}

test('when a handler is assigned two of three cases and then excluded from one, then their list, case pages and CSV export hold exactly the cases they may see', async () => {
  const [alice, bob, carol] = REPORTS;

  // The admin invites a handler; the handler sets a password from the e-mail and signs in.
  const handlerEmail = `hank@${company.domain}`;
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: handlerEmail,
    full_name: 'Hank Handler',
    roles: ['HANDLER'],
  });
  const handler = await watchedPage();
  await acceptInvitation(handler.page, platform.dataDir, handlerEmail, HANDLER_PASSWORD);
  await signIn(handler.page, handlerEmail, HANDLER_PASSWORD);
  await handler.page.getByRole('heading', { name: 'No incident reports yet' }).waitFor();
  // Their keys exist now; an admin's browser grants them the company key (the keys journey does it on the page).
  await handler.page.getByRole('heading', { name: 'You have no access to reports yet' }).waitFor();
  await approveReportAccess(platform.baseUrl, { email: company.adminEmail }, 'Hank Handler');

  // A second handler signs in too; nobody grants her the company key: she will read through per-case grants only.
  const granteeEmail = `gina@${company.domain}`;
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: granteeEmail,
    full_name: 'Gina Grantee',
    roles: ['HANDLER'],
  });
  const grantee = await watchedPage();
  await acceptInvitation(grantee.page, platform.dataDir, granteeEmail, HANDLER_PASSWORD);
  await signIn(grantee.page, granteeEmail, HANDLER_PASSWORD);
  await grantee.page.getByRole('heading', { name: 'You have no access to reports yet' }).waitFor();

  // The admin sees all three and assigns Alice's and Carol's cases to the handler on their case pages (Carol's to
  // the second handler too).
  const admin = await watchedPage();
  await signIn(admin.page, company.adminEmail, STAFF_PASSWORD);
  expect(await listedReporters(admin.page, 3)).toEqual([alice.full_name, bob.full_name, carol.full_name]);
  const caseUrls: Record<string, string> = {};
  for (const reporter of [alice, bob, carol]) {
    await listedReporters(admin.page, 3);
    caseUrls[reporter.full_name] = await openFromList(admin.page, reporter.full_name);
    await admin.page.getByRole('region', { name: 'Report' }).getByText(reporter.description).waitFor();
    if (reporter === bob) continue;
    const assign = admin.page.getByRole('group', { name: 'Assign the case' });
    await assign.getByLabel('Hank Handler').check();
    if (reporter === carol) await assign.getByLabel('Gina Grantee').check();
    await assign.getByRole('button', { name: 'Save assignees' }).click();
    await admin.page.getByText('Incident details updated').waitFor();
    await admin.page
      .getByText(reporter === carol ? /Assigned to: .*Gina Grantee/ : 'Assigned to: Hank Handler')
      .waitFor();
  }

  // Without the company key, the second handler reads Carol's case through her own grant, and no other case.
  expect(await listedReporters(grantee.page, 1)).toEqual([carol.full_name]);
  expect(await openFromList(grantee.page, carol.full_name)).toBe(caseUrls[carol.full_name]);
  await grantee.page.getByRole('region', { name: 'Report' }).getByText(carol.description).waitFor();
  await expectNotFound(grantee.page, caseUrls[alice.full_name]!, alice);

  // The handler's list holds their two cases; theirs opens decrypted; Bob's address is not found.
  expect(await listedReporters(handler.page, 2)).toEqual([alice.full_name, carol.full_name]);
  expect(await openFromList(handler.page, alice.full_name)).toBe(caseUrls[alice.full_name]);
  const report = handler.page.getByRole('region', { name: 'Report' });
  await report.getByText(alice.description).waitFor();
  await report.getByText(alice.full_name).waitFor();
  await expectNotFound(handler.page, caseUrls[bob.full_name]!, bob);
  await listedReporters(handler.page, 2);
  const before = await exportCsv(handler.page);
  expect(before).toContain(alice.full_name);
  expect(before).toContain(carol.full_name);
  expect(before).not.toContain(bob.full_name);
  expect(before.trim().split('\r\n')).toHaveLength(3);

  // The admin excludes the handler from Alice's case (conflict of interest), which unassigns them.
  await admin.page.goto(caseUrls[alice.full_name]!);
  const exclude = admin.page.getByRole('group', { name: 'Exclude from this case (conflict of interest)' });
  await exclude.getByLabel('Hank Handler').check();
  await exclude.getByRole('button', { name: 'Save exclusions' }).click();
  await admin.page.getByRole('dialog').getByRole('button', { name: 'Save exclusions' }).click();
  await admin.page.getByText('Incident details updated').waitFor();
  await admin.page.getByText('Assigned to: nobody yet').waitFor();
  expect(await exclude.getByLabel('Hank Handler').isChecked()).toBe(true);

  // The handler's list, Alice's case page and the export no longer hold it; Carol's case still opens.
  expect(await listedReporters(handler.page, 1)).toEqual([carol.full_name]);
  const after = await exportCsv(handler.page);
  expect(after).toContain(carol.full_name);
  expect(after).not.toContain(alice.full_name);
  expect(after).not.toContain(bob.full_name);
  expect(after.trim().split('\r\n')).toHaveLength(2);
  await handler.page.getByText('Exported 1 case.').waitFor();
  await expectNotFound(handler.page, caseUrls[alice.full_name]!, alice);
  await handler.page.goto(caseUrls[carol.full_name]!);
  await handler.page.getByRole('region', { name: 'Report' }).getByText(carol.description).waitFor();

  // Unassigned from Carol's case, the second handler's grant is gone with it: the case is no longer hers to open.
  await admin.page.goto(caseUrls[carol.full_name]!);
  const assign = admin.page.getByRole('group', { name: 'Assign the case' });
  await assign.getByLabel('Gina Grantee').uncheck();
  await assign.getByRole('button', { name: 'Save assignees' }).click();
  await admin.page.getByText('Incident details updated').waitFor();
  await admin.page.getByText('Assigned to: Hank Handler').waitFor();
  await expectNotFound(grantee.page, caseUrls[carol.full_name]!, carol);

  expect(handler.pageErrors).toEqual([]);
  expect(admin.pageErrors).toEqual([]);
  expect(grantee.pageErrors).toEqual([]);
  expect(handler.foreignRequests).toEqual([]);
  expect(grantee.foreignRequests).toEqual([]);
});
