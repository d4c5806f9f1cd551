import type { Browser } from 'playwright-core';
import { openWatchedPage } from '../../src/browser';
import { companyPayload, onboardAndConfirm } from '../../src/company-fixtures';
import { translationOf } from '../../src/locales';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * The EU languages added last (issue #29), on a 320 px phone: the landing and report pages are drawn in the chosen
 * language, fit the screen (Finnish, Hungarian and Greek have long words), and fetch that language's files and no
 * other (no English fallback; the browser speaks the language too, so the server's hints name it).
 */
const LANGUAGES = ['bg', 'da', 'el', 'et', 'fi', 'ga', 'hr', 'hu', 'lt', 'lv', 'mt', 'sk', 'sl'];

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

test.each(LANGUAGES)(
  'when a discloser reads %s on a 320 px phone, then the landing and report pages are in it and fit the screen',
  async (language) => {
    const text = (english: string) => translationOf('mfe-disclose', 'disclose', english, language);
    const context = await browser.newContext({
      viewport: { width: 320, height: 568 },
      isMobile: true,
      hasTouch: true,
      locale: language,
    });
    await context.addInitScript((chosen) => localStorage.setItem('i18n-language', chosen), language);
    const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
    const locales: string[] = [];
    page.on('request', (request) => {
      const match = new URL(request.url()).pathname.match(/^\/locales\/([^/]+)\//);
      if (match) locales.push(match[1]);
    });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

    await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
    await page.getByRole('link', { name: text('Report an incident') }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      language,
      'ltr',
    ]);
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.locator('a[href$="/create"]').click();
    await page.getByText(text('Stay anonymous'), { exact: true }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.locator('form button[type="submit"]:enabled').click();
    await page.getByText(text('Your report cannot be sent yet. Please complete:')).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);

    expect([...new Set(locales)]).toEqual([language]);
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  },
);
