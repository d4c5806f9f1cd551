import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { passwordLinkIn, waitForMail } from '../../src/mailbox';
import {
  STAFF_PASSWORD,
  apiToken,
  invite,
  onboardCompany,
  signInInFrench,
  chooseRowAction,
  submitLogin,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Company administration end to end in Chromium, on the standalone platform: an admin adds a reporting label
 * with a sub-category and an assignee, renames it, adds a location, sees both on the disclosure form, deletes
 * them after the confirmation, sets the resolution deadline, a notification switch and the company name.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
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
  await chooseRowAction(page, 'Supply chain', 'Edit');
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
  await chooseRowAction(page, 'Lyon plant', 'Delete');
  const locationDialog = page.getByRole('dialog');
  await locationDialog.getByText('Deleting cannot be undone').waitFor();
  await locationDialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Deleted location').waitFor();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Reporting labels' }).click();
  await chooseRowAction(page, 'Suppliers', 'Delete');
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
  // The company page also saves its disclosure page and its languages: the name's own button.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
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

test('when an admin invites a handler in German from the Team page, then the invitation is in German, the handler sets a password, signs in without admin pages with German mails, and the team shows their sign-in', async () => {
  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await signIn(page);
  await page.getByRole('link', { name: 'Team', exact: true }).click();
  await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Invite a member' }).click();
  const handlerEmail = `hank@${company.domain}`;
  await page.getByLabel('Email').fill(handlerEmail);
  await page.getByLabel('Name', { exact: true }).fill('Hank Handler');
  // The company's default language, English, is preselected for the new member's mails; the admin picks German.
  const mailLanguage = page.getByLabel('Language of the invitation and later e-mails');
  expect(await mailLanguage.inputValue()).toBe('en');
  await mailLanguage.selectOption({ label: 'Deutsch' });
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText(`Invitation sent to ${handlerEmail}`).waitFor();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Hank Handler/ }) });
  expect(await row.innerText()).toContain('Invitation sent');

  // The handler chooses a password from the e-mail and signs in: no Team, no Reporting, no admin settings.
  const handlerContext = await browser.newContext();
  const handler = await handlerContext.newPage();
  const invitation = await waitForMail(platform.dataDir, handlerEmail, /^Einladung zu Whistle$/);
  await handler.goto(passwordLinkIn(invitation));
  await handler.locator('input[name="password"]').fill('handler passphrase 1234');
  await handler.locator('input[name="repeat_password"]').fill('handler passphrase 1234');
  await handler.getByRole('button', { name: 'Set password' }).click();
  await handler.getByText('Your password has been set.').waitFor();
  await handler.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(handler, handlerEmail, 'handler passphrase 1234');
  await handler.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  expect(await handler.getByRole('link', { name: 'Team', exact: true }).count()).toBe(0);
  await handler.goto(`${platform.baseUrl}/company/team`);
  await handler.waitForURL(/\/company\/incidents$/);
  await handler.goto(`${platform.baseUrl}/company/settings/categories`);
  await handler.waitForURL(/\/company\/settings\/account$/);
  // Their own mails stay in the language the admin chose, which their account page shows and can change.
  const ownMailLanguage = handler.getByLabel('Language of my e-mails');
  await handler.getByRole('button', { name: 'Save e-mail preferences' }).waitFor();
  expect(await ownMailLanguage.inputValue()).toBe('de');
  await ownMailLanguage.selectOption({ label: 'Nederlands' });
  await handler.getByRole('button', { name: 'Save e-mail preferences' }).click();
  await handler.getByText('Updated account').waitFor();
  await handler.reload();
  await handler.getByRole('button', { name: 'Save e-mail preferences' }).waitFor();
  expect(await ownMailLanguage.inputValue()).toBe('nl');
  await handlerContext.close();

  // The admin's team page shows the sign-in; the handler becomes a reviewer.
  await page.reload();
  await row.waitFor();
  expect(await row.innerText()).not.toContain('Invitation sent');
  expect(await row.innerText()).not.toContain('Never');
  await chooseRowAction(page, 'Hank Handler', 'Change roles');
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Handler').uncheck();
  await dialog.getByLabel('Reviewer').check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Updated roles').waitFor();
  expect(await row.innerText()).toContain('Reviewer');
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when every admin settings and team page is checked by axe-core in French, then there are no serious violations', async () => {
  const { context, page } = await signInInFrench(browser, platform.baseUrl, company.adminEmail);
  const pages: Array<[string, string]> = [
    ['settings/categories', 'Catégories de signalement'],
    ['settings/categories/add', 'Ajouter une catégorie'],
    ['settings/locations', 'Sites'],
    ['settings/locations/add', 'Ajouter un site'],
    ['settings/company', 'Entreprise'],
    ['settings/deadline', 'Délai de résolution'],
    ['settings/notifications', 'Notifications'],
    ['team', 'Équipe'],
    ['team/add', 'Inviter un membre'],
  ];
  for (const [path, heading] of pages) {
    await page.goto(`${platform.baseUrl}/company/${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    expect([path, await seriousAccessibilityViolations(page)]).toEqual([path, []]);
  }
  await context.close();
});
