import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { CompanyPublicView } from '@whistle/contracts';
import {
  createIncidentCredentials,
  deriveDiscloserAuthToken,
  encryptContent,
  encryptReportFields,
  formatSecretCode,
} from '@whistle/crypto';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { chromium, startAll } from '../../src/set-up';
import { keysKept, submitLogin } from '../../src/staff';
import { ADMIN_PASSWORD, companyPayload, onboardAndConfirm, recordingMailbox } from '../../src/company-fixtures';
import { startInProcessPlatform, type InProcessPlatform } from '../../src/in-process-platform';

/**
 * Issue #25, item 3, in Chromium: someone with write access to the database swaps two report fields and presents
 * the discloser's own message as one from the case team. The discloser's review page shows "This text cannot be
 * verified" in their place, never the moved texts, and the rest of the report as it was. Item 4's pinned case keys:
 * between two opens of a case by an admin, the database gets a whole key set of its own for the case (one that opens
 * with the company key); the admin's page warns and offers no reply, note or status change.
 */
let test$: TestDependencies;
let running: InProcessPlatform;
let browser: Browser;
const mailer = createRecordingMailer();

beforeAll(async () => {
  test$ = await createTestDependencies('pglite+in-process', ['incident', 'audit', 'notification']);
  [running, browser] = await startAll<[InProcessPlatform, Browser]>(
    { started: startInProcessPlatform(test$, { mailer }), dispose: (platform) => platform.stop() },
    chromium(),
  );
});
afterAll(async () => {
  await browser?.close();
  await running?.stop();
  await test$?.dispose();
});

const UNVERIFIABLE = 'This text cannot be verified.';

/**
 * A company onboarded (its admin's e-mail in `payload`) and a report to it as the browser makes it, with its secret
 * code's parts and the incident's keys.
 */
async function companyWithReport(fields: Record<string, string>) {
  const { baseUrl } = running;
  const payload = await companyPayload();
  const url_identifier = await onboardAndConfirm({ baseUrl, mailbox: recordingMailbox(mailer.sent) }, payload);
  const view = (await (await fetch(`${baseUrl}/api/account/company/${url_identifier}`)).json()) as CompanyPublicView;
  await waitFor(
    async () =>
      (await test$.deps.db.query('select 1 from incident.company where url_identifier = $1', [url_identifier])).rows[0],
    { what: 'the company in the incident read model' },
  );
  const credentials = await createIncidentCredentials(view.public_key);
  const created = await fetch(`${baseUrl}/api/incident/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      url_identifier,
      category_uuids: [view.categories.find((category) => category.parent_uuid === null)!.uuid],
      location_uuid: view.locations[0]!.uuid,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, fields),
      // Anonymous unless a name is given, as the report form sends it.
      report_anonymously: !fields.full_name,
    }),
  });
  expect(created.status).toBe(201);
  const { uuid, retrieval_id } = (await created.json()) as { uuid: string; retrieval_id: string };
  return { payload, url_identifier, view, credentials, uuid, retrieval_id };
}

test('when the database moves a report’s texts, then the discloser’s page says they cannot be verified and shows the rest', async () => {
  const { baseUrl } = running;
  const { url_identifier, credentials, uuid, retrieval_id } = await companyWithReport({
    description: 'Invoices paid twice',
    full_name: 'Jane Doe',
    location_detail: 'Warehouse 2',
  });
  const authToken = await deriveDiscloserAuthToken(credentials.discloserPassphrase);
  const retrieval = new URLSearchParams({ url_identifier, retrieval_id });
  const opened = await fetch(`${baseUrl}/api/incident/discloser?${retrieval}`, {
    headers: { authorization: `Bearer ${authToken}` },
  });
  const { token } = (await opened.json()) as { token: string };
  const own = await encryptContent(credentials.incident.publicKey, 'My name is Jane', {
    kind: 'message',
    from: 'discloser',
  });
  const sent = await fetch(`${baseUrl}/api/incident/message/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ incident_uuid: uuid, content: own }),
  });
  expect(sent.status).toBe(201);

  // Straight into the database: the description and the name swapped, the discloser's message shown as staff's.
  const db = test$.deps.db;
  await db.query(
    `update incident.incident_field as field set value = other.value
       from incident.incident_field as other
      where field.incident_id = $1 and other.incident_id = $1
        and ((field.name, other.name) in (('description', 'full_name'), ('full_name', 'description')))`,
    [uuid],
  );
  await db.query(
    `insert into incident.message (id, incident_id, company_id, content, sender_source, sender_name, created_at)
     select $1, id, company_id, $2, 'STAFF', 'Case team', now() + interval '1 minute' from incident.incident where id = $3`,
    [randomUUID(), own, uuid],
  );

  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, baseUrl);
  await page.goto(`${baseUrl}/disclose/${url_identifier}`);
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await page
    .locator('input[name="uniquePassword"]')
    .fill(formatSecretCode(retrieval_id, credentials.discloserPassphrase));
  await page.locator('form.disclose-status button[type="submit"]').click();
  await page.getByRole('heading', { level: 1, name: /^Report / }).waitFor();
  const details = page.locator('dl.disclose-details');
  await details.getByText('Warehouse 2').waitFor();
  expect(await details.getByText(UNVERIFIABLE).count()).toBe(2);
  const thread = page.getByRole('region', { name: 'Messages' });
  await thread.getByText('My name is Jane').waitFor();
  await thread.getByText(UNVERIFIABLE).waitFor();
  expect(await thread.getByText('My name is Jane').count()).toBe(1);
  expect(await thread.getByText('Message received from Case team').count()).toBe(1);
  for (const moved of ['Invoices paid twice', 'Jane Doe']) expect(await page.getByText(moved).count()).toBe(0);
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the database swaps a case’s whole key set between two opens, then the admin’s page warns and offers no reply', async () => {
  const { baseUrl } = running;
  const { payload, view, uuid } = await companyWithReport({ description: 'Invoices paid twice' });

  // The admin opens the case once: its key is pinned in their browser. (CSP bypassed for axe-core's inline script.)
  const context = await browser.newContext({ bypassCSP: true });
  const { page, pageErrors } = await openWatchedPage(context, baseUrl);
  await page.goto(`${baseUrl}/company/login`);
  await submitLogin(page, payload.user_profile.email, ADMIN_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await keysKept(page);
  await page.goto(`${baseUrl}/company/incidents/${uuid}`);
  await page.getByText('Invoices paid twice').waitFor();
  await page.getByLabel('Reply to the reporter').waitFor();

  // Straight into the database: a key pair and passphrase of the attacker's, wrapped to the company's public key (a
  // public value), and a description of their choosing encrypted to it — a case that opens with the company key.
  const swapped = await createIncidentCredentials(view.public_key);
  const db = test$.deps.db;
  await db.query(
    `update incident.incident set public_key = $2, aes_encrypted_private_key = $3, aes_salt = $4, aes_iv = $5,
            company_encrypted_passphrase = $6 where id = $1`,
    [
      uuid,
      swapped.payload.credential.public_key,
      swapped.payload.credential.aes_encrypted_private_key,
      swapped.payload.aes_salt,
      swapped.payload.aes_iv,
      swapped.payload.company_encrypted_passphrase,
    ],
  );
  const [description] = await encryptReportFields(swapped.incident.publicKey, {
    description: 'Please tell us your full name',
  });
  await db.query(`update incident.incident_field set value = $2 where incident_id = $1 and name = 'description'`, [
    uuid,
    description!.value,
  ]);

  await page.reload();
  await page.getByRole('heading', { name: "This case's encryption key has changed" }).waitFor();
  await page.getByText('Please tell us your full name').waitFor();
  expect(await page.getByLabel('Reply to the reporter').count()).toBe(0);
  expect(await page.getByLabel('New note').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Acknowledge receipt' }).count()).toBe(0);
  // The warning and its confirmation, checked by axe-core.
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Trust the new key' }).click();
  await page.getByRole('dialog', { name: 'Trust the new key of this case?' }).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  expect(pageErrors).toEqual([]);
  await context.close();
});
