import type { Browser, Page } from 'playwright-core';
import { launchChromium, openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { STAFF_PASSWORD, apiToken, invite, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import { startStandalone, type StandalonePlatform } from '../../src/standalone';

/**
 * Company administration end to end in Chromium, on the standalone platform: an admin adds a reporting label
 * with a sub-category and an assignee, renames it, adds a location, sees both on the disclosure form, deletes
 * them after the confirmation, sets the resolution deadline, a notification switch and the company name.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startStandalone(), launchChromium()]);
  company = await onboardCompany(platform.baseUrl);
  const adminToken = await apiToken(platform.baseUrl, company.adminEmail);
  await invite(platform.baseUrl, adminToken, {
    email: `rita@${company.domain}`,
    full_name: 'Rita Reviewer',
    roles: ['REVIEWER'],
  });
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

async function signIn(page: Page) {
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
}

/** The labels and locations an employee can choose on the report form, as text. */
async function reportFormText(page: Page): Promise<string> {
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}/create`);
  await page.locator('textarea[name="description"]').waitFor();
  return page.locator('main').innerText();
}

test('when an admin manages labels, locations, deadline, notifications and company name, then each is saved with its toast and the report form follows', async () => {
  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await signIn(page);
  await page.goto(`${platform.baseUrl}/company/settings`);
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Reporting labels' }).click();
  await page.getByRole('heading', { name: 'Reporting labels', level: 1 }).waitFor();

  // Add a label with a sub-category and the reviewer as assignee.
  await page.getByRole('link', { name: 'Add category' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Supply chain');
  await page.getByRole('button', { name: 'Add sub-category' }).click();
  await page.getByRole('textbox', { name: 'Sub-category 1' }).fill('Sanctions');
  await page.getByLabel('Rita Reviewer').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Added category').waitFor();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Supply chain' }) });
  expect(await row.innerText()).toContain('Rita Reviewer');
  await page.getByRole('cell', { name: /Sanctions/ }).waitFor();

  // Rename it.
  await page.getByRole('link', { name: 'Edit Supply chain' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Suppliers');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Edited category').waitFor();
  await page.getByRole('rowheader', { name: 'Suppliers' }).waitFor();

  // Add a location.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Locations' }).click();
  await page.getByRole('link', { name: 'Add location' }).click();
  await page.getByLabel('Name').fill('Lyon plant');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Added location').waitFor();

  // The disclosure form offers both.
  const discloser = await browser.newPage();
  const form = await reportFormText(discloser);
  expect(form).toContain('Suppliers');
  expect(form).toContain('Sanctions');
  expect(await discloser.locator('select[name="location_uuid"] option', { hasText: 'Lyon plant' }).count()).toBe(1);

  // Delete both, each after the confirmation.
  await page.getByRole('button', { name: 'Delete Lyon plant' }).click();
  const locationDialog = page.getByRole('dialog');
  await locationDialog.getByText('Deleting cannot be undone').waitFor();
  await locationDialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Deleted location').waitFor();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Reporting labels' }).click();
  await page.getByRole('button', { name: 'Delete Suppliers' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Deleted category').waitFor();
  expect(await page.getByRole('rowheader', { name: 'Suppliers' }).count()).toBe(0);
  const after = await reportFormText(discloser);
  expect(after).not.toContain('Suppliers');
  expect(await discloser.locator('select[name="location_uuid"] option', { hasText: 'Lyon plant' }).count()).toBe(0);

  // Resolution deadline and a notification switch.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Resolution deadline' }).click();
  await page.getByLabel('Days to resolve a case').fill('30');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Updated settings').waitFor();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Notifications' }).click();
  await page.getByLabel('A deadline is near or passed').uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Updated settings').waitFor();

  // Company name.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Company' }).click();
  await page.getByLabel('Company name').fill('Globex Europe');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Updated company').waitFor();

  // All of it is what the server now holds.
  await page.reload();
  await page.getByLabel('Company name').waitFor();
  expect(await page.getByLabel('Company name').inputValue()).toBe('Globex Europe');
  await page.goto(`${platform.baseUrl}/company/settings/deadline`);
  expect(await page.getByLabel('Days to resolve a case').inputValue()).toBe('30');
  await page.goto(`${platform.baseUrl}/company/settings/notifications`);
  expect(await page.getByLabel('A deadline is near or passed').isChecked()).toBe(false);
  expect(await page.getByLabel('A new incident is reported').isChecked()).toBe(true);
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when every admin settings page is checked by axe-core in French, then there are no serious violations', async () => {
  const context = await browser.newContext({ bypassCSP: true, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/company/login`);
  await page.evaluate(() => localStorage.setItem('i18n-language', 'fr'));
  await page.reload();
  await page.locator('input[type="email"], input[name="email"]').first().fill(company.adminEmail);
  await page.locator('input[type="password"]').fill(STAFF_PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/company\/incidents/);
  const pages: Array<[string, string]> = [
    ['categories', 'Catégories de signalement'],
    ['categories/add', 'Ajouter une catégorie'],
    ['locations', 'Sites'],
    ['locations/add', 'Ajouter un site'],
    ['company', 'Entreprise'],
    ['deadline', 'Délai de résolution'],
    ['notifications', 'Notifications'],
  ];
  for (const [path, heading] of pages) {
    await page.goto(`${platform.baseUrl}/company/settings/${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    expect([path, await seriousAccessibilityViolations(page)]).toEqual([path, []]);
  }
  await context.close();
});
