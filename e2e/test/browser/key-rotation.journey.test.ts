import type { Browser, Page } from 'playwright-core';
import { seriousAccessibilityViolations } from '../../src/browser';
import { postJson } from '../../src/company-fixtures';
import { fillRequired, submitReport } from '../../src/report-form';
import { publicView, reportBody } from '../../src/reports';
import { STAFF_PASSWORD, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * A company key rotation in Chromium through the shell and the settings page (docs/security.md, "Rotation"): the
 * admin is told why and to whom the new key goes, stores the new recovery kit, watches every case re-wrapped in the
 * page; reports filed before and after read in the browser, and new reports get the new public key.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

async function file(description: string) {
  const view = await publicView(platform.baseUrl, company.urlIdentifier);
  const filed = await postJson(platform.baseUrl, '/api/incident/', await reportBody(view, { description }));
  expect(filed.status).toBe(201);
  return view;
}

const DESCRIPTIONS = [
  'Overtime logged but never paid',
  'Invoices split to stay under the approval limit',
  'Safety training certificates signed in bulk',
  'Written while the key was being renewed',
];

/** Opens each case of the list until one shows `description`, decrypted in the page. */
async function readCase(page: Page, description: string) {
  await page.goto(`${platform.baseUrl}/company/incidents`);
  const rows = page.getByRole('row').filter({ has: page.getByRole('link') });
  await rows.first().waitFor({ timeout: 60_000 });
  const count = await rows.count();
  for (let index = 0; index < count; index += 1) {
    if (index > 0) {
      await page.goto(`${platform.baseUrl}/company/incidents`);
      await rows.first().waitFor({ timeout: 60_000 });
    }
    await rows.nth(index).getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Report #\d+$/, level: 1 }).waitFor();
    const shown = page.getByRole('region', { name: 'Report' }).getByText(new RegExp(DESCRIPTIONS.join('|')));
    await shown.first().waitFor({ timeout: 30_000 });
    if ((await shown.first().innerText()).includes(description)) return;
  }
  throw new Error(`No case shows ${description}`);
}

test('when an admin rotates the company key, then the page explains it, shows the new kit, re-wraps every case with progress, and every report still reads', async () => {
  const before = await file(DESCRIPTIONS[0]!);
  await file(DESCRIPTIONS[1]!);
  // A discloser who opened the form before the rotation and sends it after: the old key is gone by then.
  const discloserContext = await browser.newContext();
  const discloser = await discloserContext.newPage();
  await discloser.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}/create`);
  await fillRequired(discloser, DESCRIPTIONS[3]!);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor({ timeout: 60_000 });
  await page.goto(`${platform.baseUrl}/company/settings/security`);
  await page.getByRole('button', { name: 'Rotate company key' }).click({ timeout: 60_000 });
  const dialog = page.getByRole('dialog', { name: 'Rotate the company key?' });
  await dialog.getByText(/keep this page open until it is done/).waitFor();
  const ownFingerprint = (await page.locator('.settings-table .settings-fingerprint').first().innerText()).trim();
  await dialog.getByText(ownFingerprint).waitFor();
  await dialog.getByRole('button', { name: 'Rotate company key' }).click();

  // The new recovery kit, to store before anything else happens.
  await page.getByRole('heading', { name: 'Your recovery kit' }).waitFor({ timeout: 60_000 });
  const going = page.getByRole('button', { name: 'I stored the new kit: re-wrap the reports' });
  expect(await going.isDisabled()).toBe(true);
  await page.getByLabel('I have stored the recovery kit').check();
  await going.click();
  await page
    .getByText('The company key is rotated: every report is wrapped to the new key, and the old one is deleted.')
    .waitFor({ timeout: 120_000 });

  // New reports get the new key; the ones from before and after read in the browser.
  const after = await file(DESCRIPTIONS[2]!);
  expect(after.key_version).toBe(before.key_version + 1);
  expect(after.public_key).not.toBe(before.public_key);
  await readCase(page, DESCRIPTIONS[0]!);
  await readCase(page, DESCRIPTIONS[2]!);

  // The form opened before the rotation is refused once and sent again for the new key: it gets its code and reads.
  const refusals: number[] = [];
  discloser.on('response', (response) => {
    if (response.url().endsWith('/api/incident/') && response.request().method() === 'POST')
      refusals.push(response.status());
  });
  expect(await submitReport(discloser, 'Submit incident')).toMatch(/^[0-9a-f]+:/);
  expect(refusals).toEqual([409, 201]);
  await readCase(page, DESCRIPTIONS[3]!);

  await discloserContext.close();
  await context.close();
});

test('when the rotation is offered again after one completed, then its confirmation has no serious accessibility violation', async () => {
  // axe is injected as a script: without the page's CSP (Trusted Types), which the journey above runs under.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor({ timeout: 60_000 });
  await page.goto(`${platform.baseUrl}/company/settings/security`);
  await page.getByRole('button', { name: 'Rotate company key' }).click({ timeout: 60_000 });
  const dialog = page.getByRole('dialog', { name: 'Rotate the company key?' });
  await dialog.waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await context.close();
});
