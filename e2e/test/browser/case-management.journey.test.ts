import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { STAFF_PASSWORD, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Case management end to end in Chromium, on the standalone platform: a discloser reports with a file; an
 * admin signs in, finds it in the list with its deadlines and the reporter's name (decrypted in the admin's
 * browser), opens it, reads every field and the file, acknowledges, replies with a file (not marked as
 * feedback), adds a private note, and closes it with an outcome: with the feedback still due, the close asks for
 * a final message to the reporter, pre-filled from the outcome, which the admin edits; the discloser then sees
 * the new status, how the case ended in the admin's words, and the reply, never the note or the motivation;
 * the admin's CSV export matches the list, and the search in reports finds the case by words only its decrypted
 * description holds. The discloser then writes again: the admin's list marks the case as
 * unread until they open it and come back.
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

/** A 2×1 PNG without metadata, previewed on the case page. */
const PNG_2X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==';

/** A discloser's report through the report form, with a text file and an image; answers the secret code. */
async function reportWithFile(page: Page): Promise<string> {
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await page.locator('a[href$="/create"]').click();
  await page.locator('textarea[name="description"]').waitFor();
  await page.locator('input[name="report_anonymously"][value="false"]').check();
  await page.locator('input[name="full_name"]').fill('Jane Whistle');
  await page.locator('input[name="category_uuids"]').first().check();
  await page.locator('select[name="location_uuid"]').selectOption({ index: 1 });
  await page.locator('textarea[name="description"]').fill('Invoices paid twice to a shell company');
  await page.locator('input[name="location_detail"]').fill('Warehouse 2');
  await page.locator('input[name="files"]').setInputFiles([
    { name: 'ledger.txt', mimeType: 'text/plain', buffer: Buffer.from('ledger lines') },
    { name: 'storeroom.png', mimeType: 'image/png', buffer: Buffer.from(PNG_2X1, 'base64') },
  ]);
  await page.locator('.wh-files__name', { hasText: 'ledger.txt' }).waitFor();
  await page.locator('.wh-files__name', { hasText: 'storeroom.png' }).waitFor();
  await page.locator('form button[type="submit"]:enabled').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Submit incident' }).click();
  await page.waitForURL(/\/success$/, { timeout: 30_000 });
  return (await page.locator('.disclose-code__value').textContent())!;
}

/** What a download gives: its suggested name and its bytes as text. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
}

test('when a report comes in, then an admin finds, reads, answers and closes it in the browser with a final message, and the discloser sees the status, the final message and the reply but not the note', async () => {
  const discloserContext = await browser.newContext({ acceptDownloads: true });
  const discloser = await openWatchedPage(discloserContext, platform.baseUrl);
  const code = await reportWithFile(discloser.page);
  // The receipt's proof of submission (issue 26), found again on the case page below.
  const receipt = discloser.page.getByRole('region', { name: 'Receipt for your report' });
  const fingerprint = (await receipt.locator('dd[translate="no"]').textContent())!;
  expect(fingerprint).toMatch(/^([0-9A-Z]{4} ){7}[0-9A-Z]{4}$/);

  // The admin signs in and finds the case in the list.
  // An English viewer of a French company, in a browser whose locale is the US one.
  const staffContext = await browser.newContext({ acceptDownloads: true, locale: 'en-US' });
  const staff = await openWatchedPage(staffContext, platform.baseUrl);
  const page = staff.page;
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  const row = page.getByRole('row').filter({ hasText: 'Jane Whistle' });
  await row.waitFor();
  await row.getByText('New').waitFor();
  await row.getByText(/^Acknowledgement/).waitFor();
  expect(await page.getByText('1 case').isVisible()).toBe(true);
  // The report itself is no message: nothing is unread yet.
  expect(await row.getByText(/unread message/).count()).toBe(0);
  // Dates in words, day first ("1 May 2025, 14:05"), never the browser's US 5/1/25.
  const month = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
  expect(await row.locator('td[data-label="Created"]').textContent()).toMatch(
    new RegExp(`^\\d{1,2} ${month} \\d{4}, \\d{2}:\\d{2}$`),
  );
  await row
    .getByText(new RegExp(`^Due in \\d+ days?, \\d{1,2} ${month} \\d{4}$`))
    .first()
    .waitFor();

  // The CSV export matches the list.
  const csv = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  expect(csv.name).toMatch(/^whistle-cases-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, first] = csv.text.trim().split('\r\n');
  expect(header).toBe('Incident ID,Location,Date created,Date updated,Category,Sub-categories,Identity,Status');
  expect(first).toMatch(
    /^1,[^,]+,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},.*,Jane Whistle,NEW$/,
  );
  await page.getByText('Exported 1 case.').waitFor();
  // The extended export: the same columns first, then outcome, assignees and deadlines, statuses in words.
  await page.getByRole('checkbox', { name: 'Add outcome, assignees and deadlines' }).check();
  const extended = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  expect(extended.name).toMatch(/^whistle-cases-extended-\d{4}-\d{2}-\d{2}\.csv$/);
  const [extendedHeader, extendedFirst] = extended.text.trim().split('\r\n');
  expect(extendedHeader).toBe(
    `${header},Status (in words),Outcome,Assignees,Acknowledgement due,Acknowledged,Feedback due,Feedback given,Resolution due,Overdue deadlines`,
  );
  expect(extendedFirst).toMatch(
    /,New,,[^,]*,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},$/,
  );
  expect(extendedFirst!.startsWith(`${first},`)).toBe(true);

  // Search in reports: words only the decrypted description holds (any case, no accents), found in this browser;
  // the corpus download is on the record, the words are not.
  const words = page.getByRole('search', { name: 'Search in reports' });
  await words.getByLabel('Words in the reports').fill('SHELL invoïces');
  await words.getByRole('button', { name: 'Search in reports' }).click();
  await page.getByText('1 case of 1 holds every word.').waitFor();
  const matches = page.getByRole('list', { name: 'Matching cases' });
  expect(await matches.getByRole('link').allTextContents()).toEqual(['#1']);
  await matches.getByText('Invoices paid twice to a shell company').waitFor();
  await words.getByLabel('Words in the reports').fill('shell quarry');
  await words.getByRole('button', { name: 'Search in reports' }).click();
  await page.getByText('0 cases of 1 hold every word.').waitFor();
  expect(await matches.count()).toBe(0);

  // The case: every field and the file, decrypted here.
  await row.getByRole('link').click();
  await page.getByRole('heading', { name: 'Report #1', level: 1 }).waitFor();
  await page.getByText(new RegExp(`Received \\d{1,2} ${month} \\d{4}, \\d{2}:\\d{2}`)).waitFor();
  await page.locator('.case-proof dd').getByText(fingerprint, { exact: true }).waitFor();
  const report = page.getByRole('region', { name: 'Report' });
  await report.getByText('Invoices paid twice to a shell company').waitFor();
  await report.getByText('Warehouse 2').waitFor();
  await report.getByText('Jane Whistle').waitFor();
  const file = await downloaded(page, () => report.getByRole('button', { name: /Download ledger\.txt/ }).click());
  expect(file).toEqual({ name: 'ledger.txt', text: 'ledger lines' });
  // The image previewed in the page, decrypted into an object URL the CSP allows, gone on Escape.
  await report.getByRole('button', { name: 'Preview storeroom.png' }).click();
  const preview = page.getByRole('dialog', { name: 'storeroom.png' });
  const image = preview.getByRole('img', { name: 'storeroom.png' });
  await image.waitFor();
  expect(await image.getAttribute('src')).toMatch(/^blob:/);
  expect(
    await image.evaluate(async (element: HTMLImageElement) => {
      await element.decode();
      return [element.naturalWidth, element.naturalHeight];
    }),
  ).toEqual([2, 1]);
  await page.keyboard.press('Escape');
  await preview.waitFor({ state: 'detached' });

  // Print: on record before the browser's dialog opens (stubbed: headless has none; it fires beforeprint, as
  // Chromium's does), and the paper layout carries who printed it and when, without the header or the forms.
  await page.evaluate(() => {
    window.print = () => {
      window.dispatchEvent(new Event('beforeprint'));
      document.body.setAttribute('data-printed', 'yes');
    };
  });
  const recorded = page.waitForResponse(
    (response) => response.url().endsWith('/print') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Print' }).click();
  expect((await recorded).status()).toBe(204);
  await page.locator('body[data-printed="yes"]').waitFor();
  const mark = page.locator('.case-print-mark');
  expect(await mark.isVisible()).toBe(false);
  await page.emulateMedia({ media: 'print' });
  expect(await mark.isVisible()).toBe(true);
  expect(await mark.textContent()).toMatch(/^Confidential · Report #1 · printed by Ada Lovelace on \d{1,2} \w+ \d{4}/);
  expect(await page.locator('.wh-header').isVisible()).toBe(false);
  expect(await page.getByLabel('Reply to the reporter').isVisible()).toBe(false);
  expect(await report.getByText('Invoices paid twice to a shell company').isVisible()).toBe(true);
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await page.emulateMedia({ media: 'screen' });

  // Acknowledge, reply with a file (not as the feedback), note privately, close with an outcome.
  await page.getByRole('button', { name: 'Acknowledge receipt' }).click();
  await page.getByText('Incident details updated').waitFor();
  await page.locator('.case-status', { hasText: 'Acknowledged' }).first().waitFor();
  // One timeline holds the messages, notes and status moves, with the reply and note forms under it.
  const thread = page.getByRole('region', { name: 'Case timeline' });
  await thread.getByLabel('Reply to the reporter').fill('Thank you, we are investigating');
  await thread.locator('input[name="files"]').setInputFiles({
    name: 'receipt.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('receipt of your report'),
  });
  await thread.locator('.wh-files__name', { hasText: 'receipt.txt' }).waitFor();
  await thread.getByRole('button', { name: 'Send' }).click();
  await thread.getByText('Message sent by Ada Lovelace').waitFor();
  await thread.getByText('Thank you, we are investigating').waitFor();
  const notes = thread.getByRole('form', { name: 'Private notes' });
  await notes.getByLabel('New note').fill('The manager signed the invoices');
  await notes.getByRole('button', { name: 'Add note' }).click();
  await thread.getByText('The manager signed the invoices').waitFor();
  await thread.getByText('Private note by Ada Lovelace').waitFor();
  // A reply that is not feedback leaves the feedback clock running: closing asks for a final message.
  const clocks = page.getByRole('list', { name: 'Deadlines' }).first();
  await clocks.locator('.case-clock--done', { hasText: 'Feedback' }).waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Close the case' }).click();
  const closing = page.getByRole('form', { name: 'Close the case' });
  const finalMessage = closing.getByRole('textbox', { name: 'Final message to the reporter' });
  await closing.getByLabel('Outcome').selectOption('substantiated');
  expect(await finalMessage.inputValue()).toMatch(/^Thank you for your report\. We looked into it/);
  await closing.getByLabel('Motivation').fill('Ledger proves double payments');
  await finalMessage.fill('');
  await closing.getByRole('button', { name: 'Close the case' }).click();
  await closing.getByText('Feedback is due: write the reporter a final message to close the case').waitFor();
  await page.locator('.case-status', { hasText: 'Acknowledged' }).first().waitFor();
  await finalMessage.fill('Your report was founded: the double payments were stopped and recovered.');
  await closing.getByRole('button', { name: 'Close the case' }).click();
  await thread.getByText('Ledger proves double payments').waitFor();
  await thread.getByText('Closed — Substantiated, by Ada Lovelace').waitFor();
  await thread.getByText('Your report was founded: the double payments were stopped and recovered.').waitFor();
  await clocks.locator('.case-clock--done', { hasText: 'Feedback' }).waitFor();
  expect(staff.pageErrors).toEqual([]);
  expect(staff.foreignRequests).toEqual([]);

  // The discloser comes back with the secret code: the new status, the reply and its file; never the note.
  const back = discloser.page;
  await back.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await back.getByRole('button', { name: 'Check incident status' }).click();
  await back.locator('input[name="uniquePassword"]').fill(code);
  await back.locator('form.disclose-status button[type="submit"]').click();
  await back.getByText('Closed', { exact: true }).waitFor();
  await back
    .getByRole('region', { name: 'How your report ended' })
    .getByText('Your report was founded: the double payments were stopped and recovered.')
    .waitFor();
  await back.getByText('Message received from Ada Lovelace').first().waitFor();
  await back.getByText('Thank you, we are investigating').waitFor();
  const reply = await downloaded(back, () => back.getByRole('button', { name: /Download.*receipt\.txt/ }).click());
  expect(reply).toEqual({ name: 'receipt.txt', text: 'receipt of your report' });
  expect(await back.content()).not.toContain('The manager signed the invoices');
  expect(await back.content()).not.toContain('Ledger proves double payments');
  expect(await back.content()).not.toContain('substantiated');

  // The reporter writes again: the admin's list marks the case until they open it and come back.
  await back.locator('textarea[name="text"]').fill('One more invoice arrived today');
  await back.locator('.wh-reply button[type="submit"]:enabled').click();
  await back.getByText('Incident details updated').waitFor();
  expect(discloser.pageErrors).toEqual([]);
  await page.goBack();
  const marked = page.getByRole('row').filter({ hasText: 'Jane Whistle' });
  await marked.getByText('1 unread message').waitFor();
  expect(await marked.getAttribute('class')).toContain('case-table__row--unread');
  await marked.getByRole('link').click();
  await thread.getByText('One more invoice arrived today').waitFor();
  await page.goBack();
  const read = page.getByRole('row').filter({ hasText: 'Jane Whistle' });
  await read.locator('.case-status', { hasText: 'Closed' }).waitFor();
  expect(await read.getByText(/unread message/).count()).toBe(0);
  expect(await read.getAttribute('class')).not.toContain('case-table__row--unread');
  expect(staff.pageErrors).toEqual([]);
  // Left unread: the French check below sees the marker.
  await back.locator('textarea[name="text"]').fill('And the delivery notes are missing');
  await back.locator('.wh-reply button[type="submit"]:enabled').click();
  await back.getByText('And the delivery notes are missing').waitFor();
});

test('when the list and a case are checked by axe-core in French, then there are no serious violations', async () => {
  const context = await browser.newContext({ bypassCSP: true, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/company/login`);
  await page.evaluate(() => localStorage.setItem('i18n-language', 'fr'));
  await page.reload();
  await page.locator('input[name="email"], input[type="email"]').first().fill(company.adminEmail);
  await page.locator('input[type="password"]').fill(STAFF_PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Exporter en CSV' }).waitFor();
  await page.getByRole('row').nth(1).getByText('1 message non lu').waitFor();
  // With the search in reports' matches on screen.
  await page.getByLabel('Mots dans les signalements').fill('shell');
  await page.getByRole('button', { name: 'Rechercher dans les signalements' }).click();
  await page.getByText('1 dossier sur 1 contient tous les mots.').waitFor();
  await page.getByRole('list', { name: 'Dossiers trouvés' }).getByRole('link', { name: 'n° 1' }).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.getByRole('row').nth(1).getByRole('link').click();
  await page.getByRole('heading', { name: 'Signalement n° 1', level: 1 }).waitFor();
  await page.getByText('Invoices paid twice to a shell company').waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
