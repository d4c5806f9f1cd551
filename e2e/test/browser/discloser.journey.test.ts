import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { companyPayload, onboardAndConfirm } from '../../src/company-fixtures';
import { dumpDatabase, readTree } from '../../src/database-dump';
import { translationOf } from '../../src/locales';
import { fillRequired, submitReport } from '../../src/report-form';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * The discloser's journeys in Chromium through the real microfrontends, services and database:
 * report with a file → secret code → status check → reply with a file → the reply comes back
 * decrypted; on a phone; in French; and a canary typed everywhere that the platform never stores.
 */
let platform: StandalonePlatform;
let browser: Browser;
let urlIdentifier: string;
/** The first journey's secret code, for the accessibility check of the review page. */
let firstCode: string;
const CANARY = `cnry${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  urlIdentifier = await onboardAndConfirm(platform, await companyPayload());
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

const en = (text: string | RegExp) => translationOf('mfe-disclose', 'disclose', text, 'en');

/** From the landing page to the create page, ready to send (credentials made). */
async function openCreatePage(page: Page) {
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.locator('a[href$="/create"]').click();
  await page.locator('textarea[name="description"]').waitFor();
  await page.locator('form button[type="submit"]:enabled').waitFor();
}

/** Sends the report and returns its secret code, checked for the form it is read aloud in. */
async function submitAndReadCode(page: Page, confirmLabel = en('Submit incident')): Promise<string> {
  const code = await submitReport(page, confirmLabel);
  expect(code).toMatch(/^[0-9a-f]+:[0-9a-z]{4}(-[0-9a-z]{4}){6}$/);
  return code;
}

async function finish(page: Page, labels = { finish: 'Finish', saved: 'I have saved my secret code' }) {
  await page.getByRole('button', { name: labels.finish }).click();
  const dialog = page.getByRole('dialog');
  expect(await dialog.getByRole('button', { name: labels.finish }).isDisabled()).toBe(true);
  await dialog.getByRole('checkbox', { name: labels.saved }).check();
  await dialog.getByRole('button', { name: labels.finish }).click();
  await page.waitForURL(new RegExp(`/disclose/${urlIdentifier}$`));
}

async function checkStatus(page: Page, code: string) {
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.getByRole('button', { name: en('Check incident status') }).click();
  await page.locator('input[name="uniquePassword"]').fill(code);
  await page.locator('form.disclose-status button[type="submit"]').click();
}

test('when a discloser reports with a file, keeps the code and checks the status, then the report and a reply come back decrypted', async () => {
  const context = await browser.newContext();
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await openCreatePage(page);

  // Validation first: nothing leaves while the form is wrong.
  await page.locator('form button[type="submit"]').click();
  expect(await page.getByText('This field is required', { exact: true }).count()).toBe(3);
  await page
    .locator('input[name="files"]')
    .setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(25_000_001) });
  await page.getByText('Max file size is 25MB').waitFor();
  expect(await page.locator('.wh-files li').count()).toBe(0);

  // The channel is not asked on the public form (online is sent); the name only once the discloser gives it.
  expect(await page.locator('input[name="report_channel"]').count()).toBe(0);
  await page.locator('input[name="report_anonymously"][value="false"]').check();
  await page.locator('input[name="full_name"]').fill(`Ada ${CANARY}`);
  await page.locator('input[name="email"]').fill(`${CANARY}@example.com`);
  await page.locator('select[name="phone_number_code"]').selectOption('FR:+33');
  await page.locator('input[name="phone_number"]').fill(`06 ${CANARY}`);
  await fillRequired(page, `Description ${CANARY}`);
  await page.locator('input[name="location_detail"]').fill(`Floor ${CANARY}`);
  await page.locator('input[name="date"]').fill('2026-03-01');
  await page.locator('input[name="end_date"]').fill('2026-03-02');
  await page.locator('textarea[name="people_involved"]').fill(`People ${CANARY}`);
  await page.locator('textarea[name="outcome"]').fill(`Outcome ${CANARY}`);
  await page.locator('input[name="previous_report"][value="yes"]').check();
  await page.locator('textarea[name="previous_report_details"]').fill(`Before ${CANARY}`);
  await page.locator('input[name="files"]').setInputFiles({
    name: `evidence-${CANARY}.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`file content ${CANARY}`),
  });
  await page.locator('.wh-files__name', { hasText: `evidence-${CANARY}.txt` }).waitFor();

  // The leave prompt: going back to review keeps the page.
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('dialog', { name: 'Are you sure you want submit this incident report?' }).waitFor();
  await page.getByRole('button', { name: 'Go back and review' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  const code = await submitAndReadCode(page);
  await finish(page);

  // A wrong code is answered on the form, which keeps it.
  const wrong = `${code.split(':')[0]}:aaaa-bbbb-cccc-dddd-eeee-ffff-gggg`;
  await checkStatus(page, wrong);
  await page
    .getByRole('alert')
    .filter({ hasText: en(/^Invalid secret code: /) })
    .waitFor();
  expect(await page.locator('input[name="uniquePassword"]').inputValue()).toBe(wrong);

  await checkStatus(page, code);
  await page.getByRole('heading', { name: /^Report \d+$/ }).waitFor({ timeout: 30_000 });
  const details = page.locator('dl.disclose-details');
  await details.getByText(`Description ${CANARY}`).waitFor();
  expect(await details.locator('dt').allTextContents()).toEqual([
    'Name of the employee',
    'Email',
    'Country dial code',
    'Phone number',
    'May we contact you?',
    'Incident',
    'Description',
    'Location',
    'Location details',
    'Date',
    'People involved',
    'Outcome',
  ]);
  // Dates in words, day first (not the en-US 3/1/26), whatever the browser's locale.
  await details.getByText('1 March 2026 - 2 March 2026').waitFor();
  await page.getByText('Received', { exact: true }).waitFor();

  // The report's file: listed with its decrypted name and size, downloaded and decrypted here.
  await page.locator('.wh-files__name', { hasText: `evidence-${CANARY}.txt` }).waitFor();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('button', { name: /^Download/ })
      .first()
      .click(),
  ]);
  expect(download.suggestedFilename()).toBe(`evidence-${CANARY}.txt`);
  expect(await readFile((await download.path())!, 'utf8')).toBe(`file content ${CANARY}`);

  // A reply with a file.
  await page.locator('textarea[name="text"]').fill(`Message ${CANARY}`);
  await page.locator('.wh-reply input[name="files"]').setInputFiles({
    name: `reply-${CANARY}.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`reply content ${CANARY}`),
  });
  await page.locator('.wh-reply button[type="submit"]:enabled').click();
  await page.getByText('Incident details updated').waitFor();
  expect(await page.locator('textarea[name="text"]').inputValue()).toBe('');
  // Success toasts vanish after 5 s.
  await page.getByText('Incident details updated').waitFor({ state: 'detached', timeout: 8_000 });
  await page.getByText('Message sent by Discloser').waitFor();

  // A reload forgets the opened incident (memory only); the code opens it again, reply included.
  await page.reload();
  await page.waitForURL(new RegExp(`/disclose/${urlIdentifier}$`));
  await checkStatus(page, code);
  await page.locator('.wh-message').getByText(`Message ${CANARY}`).waitFor({ timeout: 30_000 });
  await page.locator('.wh-message .wh-files__name', { hasText: `reply-${CANARY}.txt` }).waitFor();
  firstCode = code;

  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when a discloser reports from a phone, then the pages fit the screen', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.locator('a[href$="/create"]').waitFor();
  const landingScripts = scripts.length;
  await openCreatePage(page);
  // The report form and its encryption come as chunks of their own, after the landing page.
  expect(scripts.slice(landingScripts).filter((url) => url.includes('/remotes/mfe-disclose/')).length).toBeGreaterThan(
    0,
  );
  expect(await overflow()).toBeLessThanOrEqual(0);
  await fillRequired(page, `Phone report ${CANARY}`);
  // Anonymous unless changed: no identity input on the page.
  expect(await page.locator('input[name="report_anonymously"][value="true"]').isChecked()).toBe(true);
  expect(await page.locator('input[name="full_name"]').count()).toBe(0);
  await submitAndReadCode(page);
  expect(await overflow()).toBeLessThanOrEqual(0);
  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
  // Closing the tab before the code is saved asks the browser to confirm.
  const asked = new Promise<string>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    });
  });
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  await context.close();
});

test('when a discloser reads French, then the report pages are in French', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('i18n-language', 'fr'));
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  const fr = (text: string) => translationOf('mfe-disclose', 'disclose', text, 'fr');
  await openCreatePage(page);
  await page.locator('form button[type="submit"]').click();
  await page
    .getByText(translationOf('shell', 'common', 'This field is required', 'fr'))
    .first()
    .waitFor();
  await page.getByText(fr('Stay anonymous')).waitFor();
  await fillRequired(page, `Signalement ${CANARY}`);
  await submitAndReadCode(page, fr('Submit incident'));
  await page.getByRole('heading', { name: fr('Your report has been sent') }).waitFor();
  await finish(page, { finish: fr('Finish'), saved: fr('I have saved my secret code') });
  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the report, code and review pages are checked by axe-core, then there are no serious violations', async () => {
  // axe-core is injected as an inline script, which the pages' CSP rightly refuses: bypass it for this check only.
  const context = await browser.newContext({ bypassCSP: true });
  const { page } = await openWatchedPage(context, platform.baseUrl);
  await openCreatePage(page);
  await page.locator('form button[type="submit"]').click();
  await page.getByText('This field is required').first().waitFor();
  await page.locator('.wh-error-summary').waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.locator('input[name="report_anonymously"][value="false"]').check();
  await page.locator('input[name="full_name"]').waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await fillRequired(page, `Axe ${CANARY}`);
  await submitAndReadCode(page);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await finish(page);
  await checkStatus(page, `${firstCode.split(':')[0]}:aaaa-bbbb-cccc-dddd-eeee-ffff-gggg`);
  await page
    .getByRole('alert')
    .filter({ hasText: en(/^Invalid secret code: /) })
    .waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await checkStatus(page, firstCode);
  await page.locator('.wh-message').first().waitFor({ timeout: 30_000 });
  await page.locator('.disclose-clocks').waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await context.close();
});

for (const width of [320, 390]) {
  test(`when a discloser uses a ${width} px phone, then a failed submit, the code and a wrong code are answered in view`, async () => {
    // axe-core is injected as an inline script, which the pages' CSP rightly refuses: bypass it for this check only.
    const context = await browser.newContext({
      viewport: { width, height: 568 },
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
      bypassCSP: true,
    });
    const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
    const inViewport = (selector: string) =>
      page.locator(selector).evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
      });
    await openCreatePage(page);

    // The anonymity choice comes first, anonymous; identity inputs only with 'Give my name'.
    const firstGroup = page.locator('form fieldset').first();
    expect(
      await firstGroup
        .locator('input[type="radio"]')
        .evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value)),
    ).toEqual(['true', 'false']);
    expect(await page.locator('input[name="report_anonymously"][value="true"]').isChecked()).toBe(true);
    expect(await page.locator('input[name="full_name"]').count()).toBe(0);
    await page.locator('input[name="report_anonymously"][value="false"]').check();
    await page.locator('input[name="full_name"]').waitFor();
    await page.locator('input[name="report_anonymously"][value="true"]').check();
    await page.locator('input[name="full_name"]').waitFor({ state: 'detached' });

    // An empty submit: the first missing field gets the focus, in view; the summary sits by the button.
    await page.locator('form button[type="submit"]').click();
    await page.locator('.wh-error-summary').waitFor();
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'category_uuids');
    expect(await inViewport('input[name="category_uuids"] >> nth=0')).toBe(true);
    expect(await page.locator('.wh-error-summary a').count()).toBe(3);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // A summary entry leads to its field.
    await page.locator('.wh-error-summary a').nth(1).click();
    expect(await page.evaluate(() => (document.activeElement as HTMLTextAreaElement).name)).toBe('description');
    expect(await inViewport('textarea[name="description"]')).toBe(true);

    // The code whole on screen, and the text file holds exactly it.
    await fillRequired(page, `Phone ${width} ${CANARY}`);
    const code = await submitAndReadCode(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await inViewport('.disclose-code__value')).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: en('Download as a text file') }).click(),
    ]);
    expect(await readFile((await download.path())!, 'utf8')).toBe(code);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await finish(page);

    // A wrong code: the form stays open with what was typed, and says why.
    const wrong = `${code.split(':')[0]}:aaaa-bbbb-cccc-dddd-eeee-ffff-gggg`;
    await checkStatus(page, wrong);
    await page
      .getByRole('alert')
      .filter({ hasText: en(/^Invalid secret code: /) })
      .waitFor();
    expect(await page.locator('input[name="uniquePassword"]').inputValue()).toBe(wrong);
    expect(page.url()).toBe(`${platform.baseUrl}/disclose/${urlIdentifier}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The right one, typed as written down from the groups (spaces between them), opens the report; Leave clears it.
    await page.locator('input[name="uniquePassword"]').fill(code.replace(/(.{4})(?=.)/, '$1 '));
    await page.locator('form.disclose-status button[type="submit"]').click();
    await page.getByRole('heading', { name: /^Report \d+$/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: en('Leave') }).click();
    await page.waitForURL(new RegExp(`/disclose/${urlIdentifier}$`));
    // The URL changes before React has drawn the landing page: the report's heading goes with that render.
    await page.getByRole('heading', { name: /^Report \d+$/ }).waitFor({ state: 'detached' });
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
}

test('when the platform stops, then the canary typed everywhere is in no table, object, mail or log line', async () => {
  await platform.stop();
  const tables = await dumpDatabase(platform.dataDir);
  // The dump is real: the reports above are in it, encrypted.
  expect(tables).toContain('incident.incident');
  expect(tables).toContain('v2.');
  expect(tables).not.toContain(CANARY);
  const objects = await readTree(path.join(platform.dataDir, 'objects'));
  // The two files of the first journey (report and reply), stored as ciphertext.
  expect(objects.length).toBeGreaterThanOrEqual(2);
  for (const { file, bytes } of [...objects, ...(await readTree(path.join(platform.dataDir, 'mail')))]) {
    expect({ file, found: bytes.includes(CANARY) }).toEqual({ file, found: false });
  }
  expect(platform.process.output()).not.toContain(CANARY);
});
