import type { Browser, BrowserContext } from 'playwright-core';
import { openWatchedPage, type WatchedPage } from '../../src/browser';
import { fillRequired, submitReport } from '../../src/report-form';
import { publicView } from '../../src/reports';
import {
  STAFF_PASSWORD,
  acceptInvitation,
  apiToken,
  invite,
  onboardCompany,
  signInToCases,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Issue #25 item 2, end to end in Chromium on the standalone platform: the discloser keeps someone out. The company
 * shows its case team's names on the report form; two handlers are the default assignees of its first category. The
 * discloser reads on the form who will read the report, and unticks Hank (the report could be about him). Hank signs
 * in and sees nothing: no case in his list, "Case not found" at its address. Gina, the other default assignee, who
 * holds no company key, reads the report through the grant the discloser's browser made for her, and replies; the
 * discloser sees her reply with the secret code, marked as signed by the case team. A second report keeps the admin out: it is not wrapped to the company
 * key, Gina opens it with her grant, and the admin sees only the first case.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
const contexts: BrowserContext[] = [];
const HANDLER_PASSWORD = 'handler passphrase 1234';
const DESCRIPTION = 'My manager Hank approves his own expenses';
const REPLY = 'Thank you, we are looking into it without him';
const ABOUT_THE_ADMIN = 'The administrator deletes complaints about her';

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
});
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await platform?.dispose();
});

async function watchedPage(): Promise<WatchedPage> {
  const context = await browser.newContext();
  contexts.push(context);
  return openWatchedPage(context, platform.baseUrl);
}

/** A JSON call as the admin, through the gateway. */
async function asAdmin(method: string, path: string, body?: unknown) {
  const response = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${await apiToken(platform.baseUrl, company.adminEmail)}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** A handler invited, with their password set and keys made at their first sign-in. */
async function handler(fullName: string, email: string): Promise<WatchedPage> {
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email,
    full_name: fullName,
    roles: ['HANDLER'],
  });
  const watched = await watchedPage();
  await acceptInvitation(watched.page, platform.dataDir, email, HANDLER_PASSWORD);
  await signInToCases(watched.page, platform.baseUrl, email, HANDLER_PASSWORD);
  return watched;
}

test('when the discloser keeps a named handler out, then that handler sees nothing of the report, and the other reads and replies', async () => {
  const hankEmail = `hank@${company.domain}`;
  const ginaEmail = `gina@${company.domain}`;
  const hank = await handler('Hank Handler', hankEmail);
  const gina = await handler('Gina Grantee', ginaEmail);

  // The company names its case team on the report form; both handlers get the first category's reports.
  await asAdmin('PUT', '/api/account/company/', { settings: { shows_recipient_names: true } });
  const own = (await asAdmin('GET', '/api/account/company/')) as {
    user_profiles: { uuid: string; full_name: string }[];
  };
  const idOf = (name: string) => own.user_profiles.find((profile) => profile.full_name === name)!.uuid;
  const view = await publicView(platform.baseUrl, company.urlIdentifier);
  const category = view.categories.find((candidate) => candidate.parent_uuid === null)!;
  await asAdmin('PUT', `/api/account/company/category/${category.uuid}`, {
    user_profiles: [idOf('Hank Handler'), idOf('Gina Grantee')],
  });

  // The discloser writes the report, reads who will read it, and keeps Hank out.
  const discloser = await watchedPage();
  const page = discloser.page;
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}/create`);
  await fillRequired(page, DESCRIPTION);
  const readers = page.getByRole('group', { name: 'Who will read this report' });
  await readers.getByRole('checkbox', { name: /Gina Grantee \(Case handler\)/ }).waitFor();
  expect(await readers.getByRole('checkbox', { name: /Ada Lovelace \(Administrator\)/ }).isChecked()).toBe(true);
  await readers.getByRole('checkbox', { name: /Hank Handler \(Case handler\)/ }).uncheck();
  await readers.getByText('kept out: will not see this report').waitFor();
  const code = await submitReport(page, 'Submit incident');

  // Gina, who holds no company key, reads the report through her own grant and replies.
  await gina.page.goto(`${platform.baseUrl}/company/incidents`);
  await gina.page.getByText('1 case', { exact: true }).waitFor();
  await gina.page
    .getByRole('row')
    .filter({ has: gina.page.getByRole('link') })
    .getByRole('link')
    .first()
    .click();
  await gina.page.getByRole('heading', { name: /^Report #\d+$/, level: 1 }).waitFor();
  const caseUrl = gina.page.url();
  await gina.page.getByRole('region', { name: 'Report' }).getByText(DESCRIPTION).waitFor();
  await gina.page.getByText('Assigned to: Gina Grantee', { exact: true }).waitFor();
  const thread = gina.page.getByRole('region', { name: 'Case timeline' });
  await thread.getByLabel('Reply to the reporter').fill(REPLY);
  await thread.getByRole('button', { name: 'Send' }).click();
  await thread.getByText('Message sent by Gina Grantee').waitFor();

  // Hank sees nothing: no case in his list, and its address is not found.
  await hank.page.goto(`${platform.baseUrl}/company/incidents`);
  await hank.page.getByRole('heading', { name: 'No incident reports yet' }).waitFor();
  await hank.page.goto(caseUrl);
  await hank.page.getByRole('heading', { name: 'Case not found' }).waitFor();
  expect(await hank.page.content()).not.toContain(DESCRIPTION);
  const hankToken = await apiToken(platform.baseUrl, hankEmail, HANDLER_PASSWORD);
  const caseId = new URL(caseUrl).pathname.split('/').pop()!;
  const direct = await fetch(`${platform.baseUrl}/api/incident/${caseId}/`, {
    headers: { accept: 'application/json', authorization: `Bearer ${hankToken}` },
  });
  expect(direct.status).toBe(404);

  // The discloser comes back with the secret code and reads Gina's reply.
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await page.locator('input[name="uniquePassword"]').fill(code);
  await page.locator('form.disclose-status button[type="submit"]').click();
  const messages = page.getByRole('region', { name: 'Messages' });
  await messages.getByText(REPLY).waitFor();
  await messages.getByText('Message received from Gina Grantee').waitFor();
  // Signed in Gina's browser with the key the report pinned: the page checked it.
  await messages.getByText('Signed by the case team').waitFor();
  expect(await messages.getByText('This text cannot be verified.').count()).toBe(0);
  expect(await messages.getByText('This message cannot be verified.').count()).toBe(0);

  // A second report keeps the admin out: it has no company wrapping; Gina opens it with her grant, Ada sees nothing.
  const second = await watchedPage();
  await second.page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}/create`);
  await fillRequired(second.page, ABOUT_THE_ADMIN);
  const secondReaders = second.page.getByRole('group', { name: 'Who will read this report' });
  await secondReaders.getByRole('checkbox', { name: /Ada Lovelace \(Administrator\)/ }).uncheck();
  await submitReport(second.page, 'Submit incident');
  const ginaCases = (await (
    await fetch(`${platform.baseUrl}/api/incident/`, {
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${await apiToken(platform.baseUrl, ginaEmail, HANDLER_PASSWORD)}`,
      },
    })
  ).json()) as { results: { uuid: string }[] };
  const secondId = ginaCases.results.map((row) => row.uuid).find((id) => id !== caseId)!;
  await gina.page.goto(`${platform.baseUrl}/company/incidents/${secondId}`);
  await gina.page.getByRole('region', { name: 'Report' }).getByText(ABOUT_THE_ADMIN).waitFor();
  const adminCaseUrl = gina.page.url();
  const admin = await watchedPage();
  await signInToCases(admin.page, platform.baseUrl, company.adminEmail, STAFF_PASSWORD);
  await admin.page.getByText('1 case', { exact: true }).waitFor();
  await admin.page.goto(adminCaseUrl);
  await admin.page.getByRole('heading', { name: 'Case not found' }).waitFor();
  expect(await admin.page.content()).not.toContain(ABOUT_THE_ADMIN);

  for (const watched of [discloser, second, hank, gina, admin]) expect(watched.pageErrors).toEqual([]);
  expect(discloser.foreignRequests).toEqual([]);
});
