import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { translationOf } from '../../src/locales';
import { STAFF_PASSWORD, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import { startPlatformAndBrowser } from '../../src/set-up';
import type { StandalonePlatform } from '../../src/standalone';

/**
 * A company's languages end to end in Chromium (issue #29 items 3 and 4): an admin offers English and German only,
 * German by default, and writes a German title; a first visit from a browser that prefers a language the company does
 * not offer opens in German with that title, the chooser lists the two languages, and nothing is stored as a choice;
 * a browser preferring English gets English and the default text; a choice made in the chooser is kept. A report
 * sent from the German page tells the case team its language (issue #23): the case names it and its reply templates
 * come first.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;

const GERMAN_TITLE = 'Sprechen Sie mit uns, sicher';
const german = (english: string) => translationOf('mfe-disclose', 'disclose', english, 'de');

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

/** Saves with `action` and waits for the call's 200 and the page's 'Updated company'. */
async function saved(page: Page, path: string, action: () => Promise<void>) {
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.request().method() === 'PUT' && new URL(answer.url()).pathname === path),
    action(),
  ]);
  expect(response.status()).toBe(200);
  await page.getByRole('status').filter({ hasText: 'Updated company' }).first().waitFor();
}

/** A discloser's first visit from a browser whose preferred language is `locale` (CSP bypassed for axe). */
async function firstVisit(locale: string) {
  const context = await browser.newContext({ locale, bypassCSP: true });
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  return { context, page, foreignRequests, pageErrors };
}

const chooserLanguages = (page: Page) =>
  page
    .getByRole('banner')
    .getByRole('combobox')
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));

test('when an admin offers English and German, German by default, with a German title, then first visits open in the language the company offers', async () => {
  const admin = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(admin, platform.baseUrl);
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await page.goto(`${platform.baseUrl}/company/settings/company`);

  const offered = page.getByRole('group', { name: 'Offered languages' });
  await offered.waitFor();
  const languages = await offered
    .getByRole('checkbox')
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  for (const language of languages.filter((each) => each !== 'en' && each !== 'de'))
    await offered.locator(`input[value="${language}"]`).uncheck();
  expect(await offered.getByRole('checkbox', { checked: true }).count()).toBe(2);
  await page.getByLabel('Default language').selectOption('de');
  await saved(page, '/api/account/company/languages', () =>
    page.getByRole('button', { name: 'Save languages' }).click(),
  );

  await page.getByLabel('Text shown in').selectOption('de');
  await page.getByLabel('Title').fill(GERMAN_TITLE);
  await saved(page, '/api/account/company/customization', () =>
    page.getByRole('button', { name: 'Save disclosure page' }).click(),
  );
  expect(pageErrors).toEqual([]);
  await admin.close();

  // Japanese is not offered: the company's default, German, with its German title.
  const fromJapan = await firstVisit('ja-JP');
  await fromJapan.page.getByRole('heading', { level: 1, name: GERMAN_TITLE }).waitFor();
  await fromJapan.page.getByRole('link', { name: german('Report an incident') }).waitFor();
  expect(await fromJapan.page.evaluate(() => document.documentElement.lang)).toBe('de');
  expect(await chooserLanguages(fromJapan.page)).toEqual(['en', 'de']);
  // Picked, not chosen: nothing is kept under i18n-language.
  expect(await fromJapan.page.evaluate(() => localStorage.getItem('i18n-language'))).toBeNull();
  expect(await seriousAccessibilityViolations(fromJapan.page)).toEqual([]);
  expect(fromJapan.foreignRequests).toEqual([]);
  expect(fromJapan.pageErrors).toEqual([]);
  await fromJapan.context.close();

  // English is offered and preferred: English, with the default text (the company wrote none for it).
  const fromLondon = await firstVisit('en-GB');
  await fromLondon.page.getByRole('heading', { level: 1, name: 'Speak up, you’re safe' }).waitFor();
  expect(await fromLondon.page.evaluate(() => document.documentElement.lang)).toBe('en');
  // A choice in the chooser is kept, and the German title comes with it.
  await fromLondon.page.getByRole('banner').getByRole('combobox').selectOption('de');
  await fromLondon.page.getByRole('heading', { level: 1, name: GERMAN_TITLE }).waitFor();
  expect(await fromLondon.page.evaluate(() => localStorage.getItem('i18n-language'))).toBe('de');
  expect(fromLondon.pageErrors).toEqual([]);
  await fromLondon.context.close();
});

test("when a discloser reports from a German page, then the admin's case names the language and offers the German reply templates first", async () => {
  const admin = await browser.newContext({ locale: 'en-US' });
  const { page, pageErrors } = await openWatchedPage(admin, platform.baseUrl);
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  for (const [language, name, body] of [
    ['en', 'Received', 'We have received your report.'],
    ['de', 'Eingang', 'Wir haben Ihre Meldung erhalten.'],
  ]) {
    await page.goto(`${platform.baseUrl}/company/settings/reply-templates/add`);
    await page.getByLabel('Name').fill(name!);
    await page.locator('select[name="language"]').selectOption(language!);
    await page.getByLabel('Text').fill(body!);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Added template' }).first().waitFor();
  }

  // The discloser's page is in German (the company's default): the report says so, encrypted.
  const discloser = await firstVisit('de-DE');
  await discloser.page.getByRole('link', { name: german('Report an incident') }).click();
  await discloser.page.locator('textarea[name="description"]').waitFor();
  await discloser.page.locator('input[name="category_uuids"]').first().check();
  await discloser.page.locator('select[name="location_uuid"]').selectOption({ index: 1 });
  await discloser.page.locator('textarea[name="description"]').fill('Rechnungen doppelt bezahlt');
  await discloser.page.locator('form button[type="submit"]:enabled').click();
  await discloser.page
    .getByRole('dialog')
    .getByRole('button', { name: german('Submit incident') })
    .click();
  await discloser.page.waitForURL(/\/success$/, { timeout: 30_000 });
  expect(discloser.pageErrors).toEqual([]);
  await discloser.context.close();

  await page.goto(`${platform.baseUrl}/company/incidents`);
  const row = page.getByRole('row').filter({ hasText: 'New' }).first();
  await row.getByRole('link').click();
  await page.getByText('Rechnungen doppelt bezahlt').waitFor();
  await page.getByText('Language of the report: Deutsch').waitFor();
  const picker = page.getByLabel('Insert a reply template');
  await picker.waitFor();
  expect(
    await picker.locator('optgroup').evaluateAll((groups) => groups.map((group) => group.getAttribute('label'))),
  ).toEqual(['Deutsch', 'English']);
  await picker.selectOption({ label: 'Eingang' });
  expect(await page.getByLabel('Reply to the reporter').inputValue()).toBe('Wir haben Ihre Meldung erhalten.');
  expect(pageErrors).toEqual([]);
  await admin.close();
});
