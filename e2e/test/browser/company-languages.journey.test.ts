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
 * a browser preferring English gets English and the default text; a choice made in the chooser is kept.
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
