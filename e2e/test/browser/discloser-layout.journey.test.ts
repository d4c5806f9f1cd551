import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { companyPayload, onboardAndConfirm } from '../../src/company-fixtures';
import { layoutProblems } from '../../src/layout-check';
import { translationOf } from '../../src/locales';
import { pseudoLocale, pseudoText } from '../../src/pseudo-locale';
import { fillRequired, submitReport } from '../../src/report-form';
import { repoRoot } from '../../src/repo';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Every discloser page on a 320 px phone in a pseudo-locale (accented, 40 % longer, made from English here and never
 * offered) and in Arabic (right to left), issue #29 "Tests": the landing page, the wrong-code answer, the report form
 * with its errors, the secret code, the status page with a message thread. Nothing overflows its box, is clipped or
 * leaves the screen (`layoutProblems`: boxes, not screenshots looked at); Arabic is also axe-core clean.
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

/** The pseudo-locale stands in for English's files: the page is in English (offered), its texts are pseudo. */
async function servePseudoLocale(context: BrowserContext) {
  await context.route(/\/locales\/en\/(common|disclose)\.json$/, async (route) => {
    const [, namespace] = /\/locales\/en\/(\w+)\.json$/.exec(route.request().url())!;
    const frontend = namespace === 'common' ? 'shell' : 'mfe-disclose';
    const english = JSON.parse(
      readFileSync(path.join(repoRoot, frontend, 'locales', 'en', `${namespace}.json`), 'utf8'),
    );
    await route.fulfill({ contentType: 'application/json', body: JSON.stringify(pseudoLocale(english)) });
  });
}

const LANGUAGES = [
  { language: 'pseudo', locale: 'en-US', text: pseudoText, axe: false },
  {
    language: 'ar',
    locale: 'ar',
    text: (english: string) => translationOf('mfe-disclose', 'disclose', english, 'ar'),
    axe: true,
  },
];

test.each(LANGUAGES)(
  'when a discloser reads $language on a 320 px phone, then every page fits: nothing overflows, is clipped or off screen',
  async ({ language, locale, text, axe }) => {
    const context = await browser.newContext({
      viewport: { width: 320, height: 568 },
      isMobile: true,
      hasTouch: true,
      locale,
      // axe-core is injected as an inline script, which the pages' CSP rightly refuses.
      bypassCSP: axe,
    });
    if (language === 'pseudo') await servePseudoLocale(context);
    const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
    const found: Record<string, string[]> = {};
    const check = async (state: string) => {
      const problems = await layoutProblems(page);
      const violations = axe ? await seriousAccessibilityViolations(page) : [];
      if (problems.length || violations.length) found[state] = [...problems, ...violations.map((id) => `axe: ${id}`)];
    };
    const openStatusForm = async (code: string) => {
      await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
      await page.getByRole('button', { name: text('Check incident status') }).click();
      await page.locator('input[name="uniquePassword"]').fill(code);
      await page.locator('form.disclose-status button[type="submit"]').click();
    };

    await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
    await page.locator('#whistle-company-view').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: text('Report an incident') }).waitFor();
    await check('landing');

    await page.locator('a[href$="/create"]').click();
    await page.locator('textarea[name="description"]').waitFor();
    await page.getByText(text('Stay anonymous'), { exact: true }).waitFor();
    await check('create');
    await page.locator('form button[type="submit"]:enabled').click();
    await page.locator('.wh-error-summary').waitFor();
    await check('create with errors');
    await page.locator('input[name="report_anonymously"][value="false"]').check();
    await page.locator('input[name="full_name"]').waitFor();
    await check('create with contact details');

    await fillRequired(page, `${language} 320 px`);
    const code = await submitReport(page, text('Submit incident'));
    await page.locator('.disclose-code__value').waitFor();
    await check('success with the secret code');

    await openStatusForm(`${code.split(':')[0]}:aaaa-bbbb-cccc-dddd-eeee-ffff-gggg`);
    await page.locator('.disclose-status [role="alert"]').waitFor();
    await check('wrong code');

    await openStatusForm(code);
    await page.locator('textarea[name="text"]').waitFor({ timeout: 30_000 });
    await page.locator('textarea[name="text"]').fill(`A message in ${language}, long enough to wrap on a phone.`);
    await page.locator('.wh-reply button[type="submit"]:enabled').click();
    await page
      .locator('.wh-message')
      .filter({ hasText: `A message in ${language}` })
      .waitFor({ timeout: 30_000 });
    await check('status with a message thread');

    expect(found).toEqual({});
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr');
    expect({ foreignRequests, pageErrors }).toEqual({ foreignRequests: [], pageErrors: [] });
    await context.close();
  },
);

/** The pseudo-locale itself: accented, at least 40 % longer, placeholders and tags kept. */
test('the pseudo-locale is accented, 40 % longer and keeps what i18next reads', () => {
  const text = pseudoText('Report {{number}} of <0>{{name}}</0>');
  expect(text).toContain('{{number}}');
  expect(text).toContain('<0>{{name}}</0>');
  expect(text.replace(/\{\{\w+\}\}|<\/?0>/g, '')).not.toMatch(/[a-zA-Z]/);
  const prose = 'Your report cannot be sent yet. Please complete:';
  expect(pseudoText(prose).length).toBeGreaterThanOrEqual(prose.length * 1.4);
});

/** The check can fail: what it must find, put into the landing page's card. */
test('when a text, a clipped element and a control do not fit, then the layout check names each of them', async () => {
  // The page's CSP refuses style attributes: bypassed to put the misfits in.
  const context = await browser.newContext({ viewport: { width: 320, height: 568 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.locator('#whistle-company-view').waitFor({ state: 'detached' });
  expect(await layoutProblems(page)).toEqual([]);
  await page.evaluate(() => {
    const card = document.querySelector('.wh-card')!;
    card.insertAdjacentHTML(
      'beforeend',
      '<p id="long" style="white-space: nowrap">Datenschutzfolgenabschätzungsverfahrensbeschreibung</p>' +
        '<div id="frame" style="width: 100px; overflow: hidden"><span id="wide" style="display: block; width: 200px">x</span></div>' +
        '<button id="off" style="position: relative; inset-inline-start: 400px">Off</button>',
    );
  });
  const problems = (await layoutProblems(page)).join('\n');
  expect(problems).toContain('text wider than its box: p "Datenschutz');
  expect(problems).toContain('element cut by div "x": span "x"');
  expect(problems).toContain('control outside the viewport: button "Off"');
  expect(problems).toContain('page wider than the screen');
  await context.close();
});
