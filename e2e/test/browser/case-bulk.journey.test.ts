import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations, type WatchedPage } from '../../src/browser';
import { postJson } from '../../src/company-fixtures';
import { passwordLinkIn, waitForMail } from '../../src/mailbox';
import { publicView, reportBody } from '../../src/reports';
import {
  STAFF_PASSWORD,
  apiToken,
  invite,
  signInToCases,
  onboardCompany,
  until,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Issue 23, the list's selection and the case file's PDF preview, end to end in Chromium on the standalone platform.
 * A discloser reports with a two-page PDF through the form; two more reports come by the API. An admin selects the
 * two latter in the list, assigns them to a handler who holds no company key (the admin's browser wraps each case's
 * passphrase to the handler's key), and exports the selection: the CSV holds those two cases only. The handler opens
 * both through their grants. The admin previews the PDF: pdf.js, loaded only then, draws its pages on a canvas under
 * the staff pages' CSP and Trusted Types, without a single violation. axe-core finds nothing serious on the list
 * with its selection and picker, nor on the preview.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
const contexts: BrowserContext[] = [];
const HANDLER_PASSWORD = 'handler passphrase 1234';
const REPORTS = [
  { description: 'Fuel cards used on weekends', full_name: 'Bruno Bulk' },
  { description: 'Safety training certificates signed in advance', full_name: 'Clara Bulk' },
] as const;

/** A PDF of two pages of 200×200 points, each a filled square (red, then blue): something pdf.js must draw. */
function twoPagePdf(): Buffer {
  const content = ['0.8 0.1 0.1 rg 20 20 160 160 re f', '0.1 0.2 0.8 rg 40 40 120 120 re f'];
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << >> /Contents 4 0 R >>',
    `<< /Length ${content[0]!.length} >>\nstream\n${content[0]}\nendstream`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << >> /Contents 6 0 R >>',
    `<< /Length ${content[1]!.length} >>\nstream\n${content[1]}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
});
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await platform?.dispose();
});

/** A page that also records the CSP and Trusted Types violations it meets (`window.__violations`). */
async function watchedPage(options: { bypassCSP?: boolean } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  contexts.push(context);
  await context.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = violations;
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample} (${event.sourceFile})`),
    );
  });
  return openWatchedPage(context, platform.baseUrl);
}
const violationsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

/** Signs in; the journey reloads the list next, so it waits for the kept keys. */
const signIn = (page: Page, email: string, password: string) => signInToCases(page, platform.baseUrl, email, password);

/** The discloser's report with the PDF, through the report form (the file is encrypted in that browser). */
async function reportWithPdf(page: Page): Promise<void> {
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await page.locator('a[href$="/create"]').click();
  await page.locator('textarea[name="description"]').waitFor();
  await page.locator('input[name="report_anonymously"][value="false"]').check();
  await page.locator('input[name="full_name"]').fill('Paula Pdf');
  await page.locator('input[name="category_uuids"]').first().check();
  await page.locator('select[name="location_uuid"]').selectOption({ index: 1 });
  await page.locator('textarea[name="description"]').fill('The signed contract differs from the approved one');
  await page
    .locator('input[name="files"]')
    .setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: twoPagePdf() });
  await page.locator('.wh-files__name', { hasText: 'contract.pdf' }).waitFor();
  await page.locator('form button[type="submit"]:enabled').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Submit incident' }).click();
  await page.waitForURL(/\/success$/, { timeout: 30_000 });
}

/** The list with `count` cases, every reporter's name decrypted. */
async function openList(page: Page, count: number, names: readonly string[]): Promise<void> {
  await page.goto(`${platform.baseUrl}/company/incidents`);
  await page.getByText(count === 1 ? '1 case' : `${count} cases`, { exact: true }).waitFor();
  const rows = page.getByRole('row').filter({ has: page.getByRole('link') });
  await until(async () => {
    const texts = await rows.allInnerTexts();
    return texts.length === count && names.every((name) => texts.some((text) => text.includes(name)));
  });
}

/** How many pixels of the canvas are neither white nor transparent: what pdf.js drew. */
const drawnPixels = (page: Page, name: string) =>
  page.getByRole('img', { name }).evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let index = 0; index < data.length; index += 4)
      if (data[index + 3]! > 0 && (data[index]! < 200 || data[index + 1]! < 200 || data[index + 2]! < 200)) drawn += 1;
    return drawn;
  });

test('when an admin selects two cases, assigns them to a handler and exports them, and previews a PDF, then the handler opens both, the CSV holds those two, and pdf.js draws the pages under the CSP', async () => {
  const discloser = await watchedPage();
  await reportWithPdf(discloser.page);
  const view = await publicView(platform.baseUrl, company.urlIdentifier);
  for (const fields of REPORTS) {
    const response = await postJson(platform.baseUrl, '/api/incident/', {
      ...(await reportBody(view, { ...fields })),
      report_anonymously: false,
    });
    if (response.status !== 201) throw new Error(`The report answered ${response.status}: ${await response.text()}`);
  }
  const names = ['Paula Pdf', ...REPORTS.map((report) => report.full_name)];

  // A handler signs in (their keys are made then); nobody grants them the company key.
  const handlerEmail = `hank@${company.domain}`;
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: handlerEmail,
    full_name: 'Hank Handler',
    roles: ['HANDLER'],
  });
  const handler = await watchedPage();
  await handler.page.goto(passwordLinkIn(await waitForMail(platform.dataDir, handlerEmail, /invited/)));
  await handler.page.locator('input[name="password"]').fill(HANDLER_PASSWORD);
  await handler.page.locator('input[name="repeat_password"]').fill(HANDLER_PASSWORD);
  await handler.page.getByRole('button', { name: 'Set password' }).click();
  await handler.page.getByText('Your password has been set.').waitFor();
  await signIn(handler.page, handlerEmail, HANDLER_PASSWORD);
  await handler.page.getByRole('heading', { name: 'You have no access to reports yet' }).waitFor();

  // The admin selects the two reports that came by the API (#2 and #3) and assigns them to the handler.
  const admin = await watchedPage();
  const scripts: string[] = [];
  admin.page.on('response', (response) => {
    if (/\.js(?:$|\?)/.test(response.url())) scripts.push(response.url());
  });
  await signIn(admin.page, company.adminEmail, STAFF_PASSWORD);
  await openList(admin.page, 3, names);
  await admin.page.getByRole('checkbox', { name: 'Select case #2' }).check();
  await admin.page.getByRole('checkbox', { name: 'Select case #3' }).check();
  const selection = admin.page.getByRole('region', { name: 'Selected cases' });
  await selection.getByText('2 cases selected').waitFor();
  await selection.getByRole('button', { name: 'Assign' }).click();
  const picker = admin.page.getByRole('group', { name: 'Assign the selected cases to' });
  await picker.getByLabel('Hank Handler').check();
  await picker.getByRole('button', { name: 'Assign' }).click();
  await admin.page.getByText('Assigned 2 cases.').waitFor();
  for (const name of REPORTS.map((report) => report.full_name))
    await admin.page.getByRole('row').filter({ hasText: name }).getByText('Hank Handler').waitFor();
  expect(await admin.page.getByRole('row').filter({ hasText: 'Paula Pdf' }).getByText('Unassigned').count()).toBe(1);

  // "Export selected": the spec's CSV, with the two selected cases only.
  await admin.page.getByRole('checkbox', { name: 'Select case #2' }).check();
  await admin.page.getByRole('checkbox', { name: 'Select case #3' }).check();
  const [download] = await Promise.all([
    admin.page.waitForEvent('download'),
    selection.getByRole('button', { name: 'Export selected' }).click(),
  ]);
  const csv = (await readFile((await download.path())!, 'utf8')).trim().split('\r\n');
  expect(csv[0]).toBe('Incident ID,Location,Date created,Date updated,Category,Sub-categories,Identity,Status');
  expect(
    csv
      .slice(1)
      .map((line) => line.split(',')[0])
      .sort(),
  ).toEqual(['2', '3']);
  expect(csv.join('\n')).toContain('Bruno Bulk');
  expect(csv.join('\n')).toContain('Clara Bulk');
  expect(csv.join('\n')).not.toContain('Paula Pdf');
  await selection.getByText('Exported 2 cases.').waitFor();

  // Narrower than 60rem the table's rows become cards and its header goes, but not "select all": it stays, labelled.
  const wide = admin.page.viewportSize()!;
  await admin.page.setViewportSize({ width: 800, height: wide.height });
  const selectAll = admin.page.getByRole('checkbox', { name: 'Select all cases on this page' });
  expect(await selectAll.isVisible()).toBe(true);
  await admin.page.getByText('Select all cases on this page').waitFor({ state: 'visible' });
  await selectAll.check();
  await selection.getByText('3 cases selected').waitFor();
  await selectAll.uncheck();
  await admin.page.setViewportSize(wide);

  // The handler, without the company key, opens both cases through the grants the admin's browser made.
  await openList(
    handler.page,
    2,
    REPORTS.map((report) => report.full_name),
  );
  for (const report of REPORTS) {
    await openList(
      handler.page,
      2,
      REPORTS.map((each) => each.full_name),
    );
    await handler.page.getByRole('row').filter({ hasText: report.full_name }).getByRole('link').first().click();
    await handler.page.getByRole('region', { name: 'Report' }).getByText(report.description).waitFor();
  }

  // The PDF: nothing of pdf.js came with the list or the case page; opening the preview loads it and draws page 1.
  await openList(admin.page, 3, names);
  await admin.page.getByRole('row').filter({ hasText: 'Paula Pdf' }).getByRole('link').first().click();
  const report = admin.page.getByRole('region', { name: 'Report' });
  await report.getByText('The signed contract differs from the approved one').waitFor();
  const before = scripts.length;
  // Not one so far (zod parses without probing `new Function`, which the CSP and Trusted Types refuse).
  expect(await violationsOf(admin.page)).toEqual([]);
  expect(scripts.filter((url) => url.includes('pdf.worker'))).toEqual([]);
  const bodies = await Promise.all(
    [...new Set(scripts)].map((url) => admin.page.evaluate((address) => fetch(address).then((r) => r.text()), url)),
  );
  expect(bodies.filter((text) => text.includes('pdf.worker.min.'))).toEqual([]);
  await report.getByRole('button', { name: 'Preview contract.pdf' }).click();
  const preview = admin.page.getByRole('dialog', { name: 'contract.pdf' });
  await preview.getByRole('img', { name: 'contract.pdf, page 1 of 2' }).waitFor();
  await until(async () => (await drawnPixels(admin.page, 'contract.pdf, page 1 of 2')) > 1000);
  expect(scripts.slice(before).some((url) => url.includes('/assets/pdf.worker.min.'))).toBe(true);
  await preview.getByRole('button', { name: 'Next page' }).click();
  await preview.getByText('Page 2 of 2').waitFor();
  await until(async () => (await drawnPixels(admin.page, 'contract.pdf, page 2 of 2')) > 1000);
  await admin.page.keyboard.press('Escape');
  await preview.waitFor({ state: 'detached' });

  expect(await violationsOf(admin.page)).toEqual([]);
  expect(await violationsOf(handler.page)).toEqual([]);
  expect(admin.pageErrors).toEqual([]);
  expect(handler.pageErrors).toEqual([]);
  expect(admin.foreignRequests).toEqual([]);

  // axe-core on the changed pages: the list with a selection and the picker open, and the PDF preview.
  const audited = await watchedPage({ bypassCSP: true });
  await signIn(audited.page, company.adminEmail, STAFF_PASSWORD);
  await openList(audited.page, 3, names);
  await audited.page.getByRole('checkbox', { name: 'Select case #1' }).check();
  await audited.page.getByRole('region', { name: 'Selected cases' }).getByRole('button', { name: 'Assign' }).click();
  await audited.page.getByRole('group', { name: 'Assign the selected cases to' }).waitFor();
  expect(await seriousAccessibilityViolations(audited.page)).toEqual([]);
  await audited.page.getByRole('row').filter({ hasText: 'Paula Pdf' }).getByRole('link').first().click();
  await audited.page
    .getByRole('region', { name: 'Report' })
    .getByRole('button', { name: 'Preview contract.pdf' })
    .click();
  await audited.page.getByRole('img', { name: 'contract.pdf, page 1 of 2' }).waitFor();
  expect(await seriousAccessibilityViolations(audited.page)).toEqual([]);
});
