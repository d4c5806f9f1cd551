import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { submitReport } from '../../src/reports';
import { STAFF_PASSWORD, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * The audit trail end to end in Chromium, on the standalone platform: a report comes in; the admin opens
 * the case and its timeline shows the report and their own opening, once however often the page is loaded; the company audit log filters by
 * action, exports its CSV, verifies the chain, and passes axe-core in French.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
let incidentUuid: string;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
  incidentUuid = await submitReport(platform.baseUrl, company.urlIdentifier);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

/**
 * The case's timeline once it holds `text`. The trail records events after the fact (through the bus):
 * the opening of the case may land just after the timeline asked, so the page is opened again until it shows
 * (in the same sign-in: the opening is recorded once).
 */
async function caseTrailShowing(page: Page, text: string) {
  for (let attempt = 1; ; attempt += 1) {
    await page.goto(`${platform.baseUrl}/company/incidents/${incidentUuid}`);
    const trail = page.getByRole('region', { name: 'Case timeline' });
    await trail.getByRole('listitem').first().waitFor();
    if ((await trail.getByText(text).count()) > 0 || attempt === 10) return trail;
    await page.waitForTimeout(500);
  }
}

test('when an admin opens a case and then the audit log, then both show who did what; the log filters, exports, verifies and passes axe in French', async () => {
  const context = await browser.newContext({ acceptDownloads: true, bypassCSP: true });
  const { page, pageErrors, foreignRequests } = await openWatchedPage(context, platform.baseUrl);
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();

  // The case's timeline: the report, and the admin's own opening of it, once for every load of the page.
  const trail = await caseTrailShowing(page, 'Case opened');
  await page.getByRole('heading', { name: 'Report #1', level: 1 }).waitFor();
  const lines = await trail.getByRole('listitem').allInnerTexts();
  expect(lines.filter((line) => /^Case opened, by Ada Lovelace\b/.test(line))).toHaveLength(1);
  expect(lines.some((line) => /^Report received\b/.test(line))).toBe(true);

  // The company audit log, from the settings sidebar; filtered by action through the form and the URL.
  await page.goto(`${platform.baseUrl}/company/settings`);
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
  const table = page.getByRole('table', { name: 'Audit log entries, newest first' });
  await table.getByRole('rowheader', { name: 'Company created' }).waitFor();
  const filters = page.getByRole('form', { name: 'Filter the audit log' });
  await filters.getByLabel('Action').selectOption({ label: 'Case opened' });
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/[?&]action=incident-opened/);
  await table.getByRole('rowheader', { name: 'Company created' }).waitFor({ state: 'detached' });
  await table.getByRole('rowheader', { name: 'Case opened' }).first().waitFor();
  expect(new Set(await table.getByRole('rowheader').allInnerTexts())).toEqual(new Set(['Case opened']));
  // The case named by its report number (asked of the case list), not its id.
  const caseLink = table.getByRole('link', { name: 'Open the case #1' }).first();
  expect(await caseLink.getAttribute('href')).toBe(`/company/incidents/${incidentUuid}`);

  // The server's CSV of the filtered log, fetched with the admin's token.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
  expect(header).toBe('Date (UTC),Action,Result,Actor,Actor type,Object type,Object,Case');
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((row) => row.split(',')[1] === 'incident-opened' && row.endsWith(incidentUuid))).toBe(true);

  // The chain, checked on the server.
  await page.getByRole('button', { name: 'Verify integrity' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^The audit log is intact: \d+ entries checked/ })
    .waitFor();

  // The same page in French passes axe-core.
  await page.evaluate(() => localStorage.setItem('i18n-language', 'fr'));
  await page.reload();
  await page.getByRole('heading', { name: 'Journal d’audit', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Entrées du journal d’audit, les plus récentes d’abord' }).waitFor();
  await page.getByRole('button', { name: 'Vérifier l’intégrité' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Le journal d’audit est intact/ })
    .waitFor();
  expect(await page.getByRole('rowheader', { name: 'Dossier consulté' }).count()).toBeGreaterThan(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  expect(pageErrors).toEqual([]);
  expect(foreignRequests).toEqual([]);
  await context.close();
});
