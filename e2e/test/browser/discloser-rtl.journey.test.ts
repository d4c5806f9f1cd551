import type { Browser, Page } from 'playwright-core';
import { openWatchedPage } from '../../src/browser';
import { companyPayload, onboardAndConfirm } from '../../src/company-fixtures';
import { translationOf } from '../../src/locales';
import { fillRequired, submitReport } from '../../src/report-form';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Arabic on a 320 px phone (issue #29): the landing, report and code pages are laid out right to left, in Arabic,
 * nothing is wider than the screen, and the secret code still reads left to right.
 */
let platform: StandalonePlatform;
let browser: Browser;
let urlIdentifier: string;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  urlIdentifier = await onboardAndConfirm(platform, await companyPayload());
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

const ar = (text: string) => translationOf('mfe-disclose', 'disclose', text, 'ar');

/** The page is right to left and no wider than the screen. */
async function expectRightToLeftInView(page: Page) {
  expect(await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).toEqual([
    'rtl',
    'ar',
  ]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test('when a discloser reads Arabic on a 320 px phone, then the report pages are right to left and fit the screen', async () => {
  const context = await browser.newContext({ viewport: { width: 320, height: 568 }, isMobile: true, hasTouch: true });
  await context.addInitScript(() => localStorage.setItem('i18n-language', 'ar'));
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);

  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.getByRole('link', { name: ar('Report an incident') }).waitFor();
  await expectRightToLeftInView(page);

  await page.locator('a[href$="/create"]').click();
  await page.locator('textarea[name="description"]').waitFor();
  await page.getByText(ar('Stay anonymous')).waitFor();
  await expectRightToLeftInView(page);
  await page.locator('form button[type="submit"]:enabled').click();
  await page.locator('.wh-error-summary').waitFor();
  await expectRightToLeftInView(page);

  await fillRequired(page, 'وصف الواقعة');
  expect(await submitReport(page, ar('Submit incident'))).toMatch(/^[0-9a-f]+:[0-9a-z]{4}(-[0-9a-z]{4}){6}$/);
  await page.getByRole('heading', { name: ar('Your report has been sent') }).waitFor();
  await expectRightToLeftInView(page);
  const code = page.locator('.disclose-code__value');
  expect(await code.evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
  const box = (await code.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(320);

  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
  await context.close();
});
