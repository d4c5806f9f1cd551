import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import type { CompanyPublicView } from '@whistle/contracts';
import {
  createIncidentCredentials,
  deriveDiscloserAuthToken,
  encryptContent,
  encryptReportFields,
  formatSecretCode,
  signStaffContent,
  type TeamKey,
} from '@whistle/crypto';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { fetchCall, unlockOwnKeys } from '@whistle/test-support';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { chromium, startAll } from '../../src/set-up';
import { ADMIN_PASSWORD, companyPayload, onboardAndConfirm, recordingMailbox } from '../../src/company-fixtures';
import { startInProcessPlatform, type InProcessPlatform } from '../../src/in-process-platform';
import { sendSignedStaffFile } from '../../src/reports';
import { apiToken, keysKept, submitLogin } from '../../src/staff';

/**
 * Issue #25, items 3 and 4, in Chromium. Item 3: someone with write access to the database swaps two report fields and
 * presents the discloser's own message as one from the case team. The discloser's review page shows "This text cannot
 * be verified" in their place, never the moved texts, and the rest of the report as it was. Item 4's pinned case keys:
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

/** A company onboarded and known to the incident service, with its public view. */
async function company(email?: string) {
  const { baseUrl } = running;
  const url_identifier = await onboardAndConfirm(
    { baseUrl, mailbox: recordingMailbox(mailer.sent) },
    await companyPayload({}, email ? { email } : {}),
  );
  const view = (await (await fetch(`${baseUrl}/api/account/company/${url_identifier}`)).json()) as CompanyPublicView;
  await waitFor(
    async () =>
      (await test$.deps.db.query('select 1 from incident.company where url_identifier = $1', [url_identifier])).rows[0],
    { what: 'the company in the incident read model' },
  );
  return { url_identifier, view };
}

/**
 * A report as the browser makes it, with its secret code and the discloser's session token; `teamKeys` pinned in it
 * as the report form pins the company view's (none: a report from before the pinning).
 */
async function report(url_identifier: string, view: CompanyPublicView, teamKeys?: TeamKey[]) {
  const { baseUrl } = running;
  const credentials = await createIncidentCredentials(view.public_key, [], teamKeys);
  const created = await fetch(`${baseUrl}/api/incident/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      url_identifier,
      category_uuids: [view.categories.find((category) => category.parent_uuid === null)!.uuid],
      location_uuid: view.locations[0]!.uuid,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, {
        description: 'Invoices paid twice',
        full_name: 'Jane Doe',
        location_detail: 'Warehouse 2',
      }),
      report_anonymously: false,
    }),
  });
  expect(created.status).toBe(201);
  const { uuid, retrieval_id } = (await created.json()) as { uuid: string; retrieval_id: string };
  const authToken = await deriveDiscloserAuthToken(credentials.discloserPassphrase);
  const retrieval = new URLSearchParams({ url_identifier, retrieval_id });
  const opened = await fetch(`${baseUrl}/api/incident/discloser?${retrieval}`, {
    headers: { authorization: `Bearer ${authToken}` },
  });
  const { token } = (await opened.json()) as { token: string };
  return { uuid, retrieval_id, credentials, token };
}

/** The discloser's review page in Chromium, opened with the report's secret code. */
async function reviewPage(url_identifier: string, code: string) {
  const { baseUrl } = running;
  const context = await browser.newContext();
  const watched = await openWatchedPage(context, baseUrl);
  const { page } = watched;
  await page.goto(`${baseUrl}/disclose/${url_identifier}`);
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await page.locator('input[name="uniquePassword"]').fill(code);
  await page.locator('form.disclose-status button[type="submit"]').click();
  await page.getByRole('heading', { level: 1, name: /^Report / }).waitFor();
  return { ...watched, context };
}

test('when the database moves a report’s texts, then the discloser’s page says they cannot be verified and shows the rest', async () => {
  const { baseUrl } = running;
  const { url_identifier, view } = await company();

  const { uuid, retrieval_id, credentials, token } = await report(url_identifier, view);
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

  const { page, pageErrors, context } = await reviewPage(
    url_identifier,
    formatSecretCode(retrieval_id, credentials.discloserPassphrase),
  );
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

/**
 * Issue #25, item 4, in Chromium: the report pins the case team's signing keys (as the report form does, from the
 * company view); the admin replies, signed in their browser's way. Someone with write access to the database then
 * puts two "staff" messages in the thread: one unsigned, one carrying the admin's reply's signature. The discloser's
 * page marks the real reply as signed by the case team and shows "This message cannot be verified" for the others,
 * never their text. Of the reply's two signed files, one gets the other's encrypted name in the database: it shows
 * "This file cannot be verified" and no download; the other downloads, checked against its signed digest.
 */
test('when a staff message is not signed by the pinned case team, then the discloser’s page shows the warning instead, and the signed reply as verified', async () => {
  const { baseUrl } = running;
  const email = `ada@${randomUUID().slice(0, 8)}.example`;
  const { url_identifier, view } = await company(email);
  const pinned = (view.every_case_keys ?? []).map((key) => ({
    key_id: key.key_id,
    signing_public_key: key.signing_public_key!,
    role: key.role ?? 'HANDLER',
  }));
  expect(pinned).toHaveLength(1);
  const { uuid, retrieval_id, credentials } = await report(url_identifier, view, pinned);

  // The admin's reply, encrypted and signed as the case page does it.
  const call = fetchCall(baseUrl);
  const adminToken = await apiToken(baseUrl, email, ADMIN_PASSWORD);
  const admin = await unlockOwnKeys(call, adminToken, ADMIN_PASSWORD);
  const incidentPublicKey = credentials.incident.publicKey;
  const staffText = (text: string) => encryptContent(incidentPublicKey, text, { kind: 'message', from: 'staff' });
  const reply = await staffText('We have received your report');
  const signature = await signStaffContent(admin, { incidentPublicKey, kind: 'message', ciphertexts: [reply] });
  const sent = await call('POST', '/api/incident/message/', {
    bearer: adminToken,
    body: { incident_uuid: uuid, content: reply, signature },
  });
  expect(sent.status).toBe(201);
  const { file_token: fileToken } = (await call('GET', `/api/incident/${uuid}`, { bearer: adminToken })).body as {
    file_token: string;
  };
  const replyFile = (name: string) =>
    sendSignedStaffFile(
      baseUrl,
      {
        fileToken,
        person: admin,
        keyId: (sent.body as { signature: { signer_key_id: string } }).signature.signer_key_id,
      },
      {
        incidentPublicKey,
        incident_uuid: uuid,
        incident_message_uuid: (sent.body as { uuid: string }).uuid,
        name,
        text: `${name} of the case team`,
      },
    );
  const [minutes, renamed] = [await replyFile('minutes.txt'), await replyFile('agenda.txt')];
  await test$.deps.db.query('update file.file set file_name = $2 where id = $1', [renamed.uuid, minutes.file_name]);
  await waitFor(
    async () => (await test$.deps.db.query('select 1 from incident.file where incident_id = $1', [uuid])).rows[1],
    { what: 'both files in the incident read model' },
  );

  // Straight into the database: a staff message with no signature, and one with the reply's signature.
  const insert = (content: string, signed: boolean) =>
    test$.deps.db.query(
      `insert into incident.message (id, incident_id, company_id, content, sender_source, sender_name, created_at,
                                     signer_key_id, signature_nonce, signature)
       select $1, id, company_id, $2, 'STAFF', 'Case team', now() + interval '1 minute', $4, $5, $6
         from incident.incident where id = $3`,
      [
        randomUUID(),
        content,
        uuid,
        signed ? pinned[0]!.key_id : null,
        signed ? signature.nonce : null,
        signed ? signature.signature : null,
      ],
    );
  await insert(await staffText('Please send us your home address'), false);
  await insert(await staffText('Please call us on this number'), true);

  const { page, pageErrors, context } = await reviewPage(
    url_identifier,
    formatSecretCode(retrieval_id, credentials.discloserPassphrase),
  );
  const thread = page.getByRole('region', { name: 'Messages' });
  await thread.getByText('We have received your report').waitFor();
  await thread.getByText('Signed by the case team').waitFor();
  expect(await thread.getByText('Signed by the case team').count()).toBe(1);
  await thread.getByText('This message cannot be verified.').first().waitFor();
  expect(await thread.getByText('This message cannot be verified.').count()).toBe(2);
  for (const inserted of ['Please send us your home address', 'Please call us on this number'])
    expect(await page.getByText(inserted).count()).toBe(0);
  await thread.getByText('This file cannot be verified.').waitFor();
  expect(await thread.getByRole('button', { name: /^Download/ }).count()).toBe(1);
  const downloading = page.waitForEvent('download');
  await thread.getByRole('button', { name: 'Download minutes.txt' }).click();
  const downloaded = await downloading;
  expect(downloaded.suggestedFilename()).toBe('minutes.txt');
  expect(await readFile((await downloaded.path())!, 'utf8')).toBe('minutes.txt of the case team');
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the database swaps a case’s whole key set between two opens, then the admin’s page warns and offers no reply', async () => {
  const { baseUrl } = running;
  const email = `ada@${randomUUID().slice(0, 8)}.example`;
  const { url_identifier, view } = await company(email);
  const { uuid } = await report(url_identifier, view);

  // The admin opens the case once: its key is pinned in their browser. (CSP bypassed for axe-core's inline script.)
  const context = await browser.newContext({ bypassCSP: true });
  const { page, pageErrors } = await openWatchedPage(context, baseUrl);
  await page.goto(`${baseUrl}/company/login`);
  await submitLogin(page, email, ADMIN_PASSWORD);
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
