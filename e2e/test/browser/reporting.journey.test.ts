import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { publicView, reportBody } from '../../src/reports';
import { STAFF_PASSWORD, apiToken, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Reporting end to end in Chromium, on the standalone platform: four reports come in (two online, one by
 * telephone, one internal) and one is acknowledged; an admin opens Reporting from the top navigation and the
 * table views show those counts, the CSV of a chart holds them, and axe finds nothing serious in French.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
let labelName: string;
let locationName: string;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
  const view = await publicView(platform.baseUrl, company.urlIdentifier);
  labelName = view.categories.find((category) => category.parent_uuid === null)!.name;
  locationName = view.locations[0]!.name;
  const made: string[] = [];
  for (const channel of ['online', 'online', 'telephone', 'internal']) {
    const response = await fetch(`${platform.baseUrl}/api/incident/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...(await reportBody(view)), report_channel: channel }),
    });
    if (response.status !== 201) throw new Error(`Report answered ${response.status}: ${await response.text()}`);
    made.push(((await response.json()) as { uuid: string }).uuid);
  }
  const token = await apiToken(platform.baseUrl, company.adminEmail);
  const acknowledged = await fetch(`${platform.baseUrl}/api/incident/${made[2]}/`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ status: 'ACKNOWLEDGED' }),
  });
  if (acknowledged.status !== 200) throw new Error(`Acknowledging answered ${acknowledged.status}`);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

/** The rows of the table captioned `caption` (opened from its figure's <details>), each as its cells' texts. */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const figure = page.getByRole('region', { name: caption });
  await figure.locator('summary').click();
  const table = figure.getByRole('table', { name: caption });
  await table.waitFor();
  return table
    .locator('tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())),
    );
}

test('when reports came in, then an admin opens Reporting and the table views and a CSV show their counts', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const { page, pageErrors, foreignRequests } = await openWatchedPage(context, platform.baseUrl);
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Reporting' }).click();
  await page.getByRole('heading', { name: 'Reporting', level: 1 }).waitFor();
  await page.getByText(/4 cases received/).waitFor();
  // Without a period in the URL, the last 12 months (a bookmark of the bare page stays "the last 12 months").
  expect(await page.getByLabel('Period', { exact: true }).inputValue()).toBe('last12Months');

  const months = await tableRows(page, 'Cases per month, by channel');
  expect(months[0]).toEqual(['Month', 'Online', 'Telephone', 'Internal', 'Total']);
  expect(months).toHaveLength(13);
  // The reports were made today: the last month holds them all, the others none.
  expect(months.at(-1)!.slice(1)).toEqual(['2', '1', '1', '4']);
  expect(months.slice(1, -1).every((row) => row.slice(1).join() === '0,0,0,0')).toBe(true);
  expect(await tableRows(page, 'Cases by category')).toEqual([
    ['Category', 'Cases'],
    [labelName, '4'],
  ]);
  expect(await tableRows(page, 'Cases by location')).toEqual([
    ['Location', 'Cases'],
    [locationName, '4'],
  ]);
  const statuses = await tableRows(page, 'Cases by status today');
  expect(statuses).toContainEqual(['New', '3']);
  expect(statuses).toContainEqual(['Acknowledged', '1']);
  const tile = (name: string) => page.locator('.reporting-tile', { hasText: name }).locator('dd').innerText();
  expect(await tile('Open cases')).toContain('4');
  expect(await tile('Median time to acknowledge')).toMatch(/over 1 case/);
  // Chart.js drew each chart on its canvas.
  expect(await page.locator('.reporting-chart canvas').count()).toBe(5);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV: Cases per month, by channel' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^whistle-reporting-cases-per-month-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const csv = (await readFile((await download.path())!, 'utf8')).split('\r\n');
  expect(csv[0]).toBe('Month,Online,Telephone,Internal,Total');
  expect(csv.at(-1)).toMatch(/^\d{4}-\d{2},2,1,1,4$/);

  // A preset goes to the URL and is asked of the server.
  await page.getByLabel('Period', { exact: true }).selectOption('lastYear');
  await page.waitForURL(/from=\d{4}-01-01&to=\d{4}-12-31/);
  await page.getByText(/0 cases received/).waitFor();

  // Typed dates: day, month by name, year, whatever the browser's locale (Chromium's en-US date input is
  // mm/dd/yyyy); a day that does not exist is refused in words, a real one goes to the URL.
  const from = page.getByRole('group', { name: 'From' });
  const to = page.getByRole('group', { name: 'To' });
  await from.getByRole('textbox', { name: 'Day' }).fill('1');
  await from.getByRole('combobox', { name: 'Month' }).selectOption({ label: 'May' });
  await from.getByRole('textbox', { name: 'Year' }).fill('2025');
  await to.getByRole('textbox', { name: 'Day' }).fill('31');
  await to.getByRole('combobox', { name: 'Month' }).selectOption({ label: 'June' });
  await to.getByRole('textbox', { name: 'Year' }).fill('2025');
  await page.getByRole('button', { name: 'Show' }).click();
  await to.getByText('Enter a real date, for example 1 May 2025').waitFor();
  await to.getByRole('textbox', { name: 'Day' }).fill('30');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/from=2025-05-01&to=2025-06-30/);
  await page.getByText(/^1 May – 30 June 2025 \(UTC days\)/).waitFor();
  expect(pageErrors).toEqual([]);
  expect(foreignRequests).toEqual([]);
});

test('when the reporting page is checked by axe-core in French with its tables open, then there are no serious violations', async () => {
  const context = await browser.newContext({ bypassCSP: true, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/company/login`);
  await page.evaluate(() => localStorage.setItem('i18n-language', 'fr'));
  await page.reload();
  await page.locator('input[name="email"], input[type="email"]').first().fill(company.adminEmail);
  await page.locator('input[type="password"]').fill(STAFF_PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await page.goto(`${platform.baseUrl}/company/reporting`);
  await page.getByRole('heading', { name: 'Rapports', level: 1 }).waitFor();
  await page.getByText(/4 signalements reçus/).waitFor();
  for (const summary of await page.locator('.reporting-table summary').all()) await summary.click();
  await page.getByRole('table', { name: 'Signalements par mois et par canal' }).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
