import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  encryptedFieldNames,
  FILE_UPLOAD_CONTENT_TYPE,
  type CompanyPublicView,
  type EventEnvelope,
} from '@whistle/contracts';
import {
  createIncidentCredentials,
  DecryptionError,
  decryptNote,
  decryptReportFields,
  deriveDiscloserAuthToken,
  encryptContent,
  encryptReportFields,
  encryptFile,
  encryptNote,
  openIncidentAsCompany,
  openIncidentAsDiscloser,
} from '@whistle/crypto';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { fetchCall, openCompanyKey, signInBody, unlockOwnKeys } from '@whistle/test-support';
import {
  ADMIN_PASSWORD,
  companyPayload,
  onboardAndConfirm,
  postJson,
  recordingMailbox,
} from '../../src/company-fixtures';
import { dumpTables } from '../../src/database-dump';
import { fileUploadBody } from '../../src/reports';
import { startInProcessPlatform, type InProcessPlatform } from '../../src/in-process-platform';

/** The canary in the forms it could leak in: as is, and base64 at each of the three alignments. */
function leakForms(canary: string): string[] {
  const forms = [canary];
  for (let shift = 0; shift < 3; shift += 1) {
    const encoded = Buffer.from(`${'x'.repeat(shift)}${canary}`).toString('base64');
    // Only whole groups that encode canary bytes alone: skip the first and last group.
    forms.push(encoded.slice(8, -8));
  }
  return forms;
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Every service of the platform composed in one process (`createPlatform`, as `npm start` does) on each
 * test stack, with a recording logger and mailer and a folder object store that the test inspects.
 */
describe.each(testStacks)('confidentiality and anonymity of a report on %s', (stack) => {
  let test$: TestDependencies;
  let running: InProcessPlatform;
  let baseUrl: string;
  const mailer = createRecordingMailer();
  const events: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'audit', 'notification', 'canary-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'canary-observer',
      events: ['#'],
      handle: async (event) => void events.push(event),
    });
    running = await startInProcessPlatform(test$, { mailer, settings: { TRUST_PROXY: '1' } });
    baseUrl = running.baseUrl;
  });
  afterAll(async () => {
    await running?.stop();
    await test$?.dispose();
  });

  /** A company onboarded through auth, once the incident service's read model has it from `company.created`. */
  async function onboardedCompany(): Promise<
    CompanyPublicView & { companyId: string; admin: { username: string; password: string } }
  > {
    const payload = await companyPayload();
    const url_identifier = await onboardAndConfirm({ baseUrl, mailbox: recordingMailbox(mailer.sent) }, payload);
    const companyId = await waitFor(
      async () =>
        (
          await test$.deps.db.query<{ id: string }>('select id from incident.company where url_identifier = $1', [
            url_identifier,
          ])
        ).rows[0]?.id,
      { what: 'the company in the incident read model' },
    );
    const view = (await (await fetch(`${baseUrl}/api/account/company/${url_identifier}`)).json()) as CompanyPublicView;
    return {
      ...view,
      companyId,
      admin: { username: payload.user_profile.email, password: ADMIN_PASSWORD },
    };
  }

  /** JSON with a Bearer token, as the staff pages send it. */
  const staffCall = async (token: string, method: string, url: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect({ url, status: response.status }).toEqual({ url, status: method === 'POST' ? 201 : 200 });
    return response.json();
  };

  test('when a canary is typed into every field, a message, a file name and its content, and staff answer, note and close with it, then it appears in no table, object, event, log or mail', async () => {
    const canary = `CANARY-${randomUUID()}`;
    // What a browser would give away about the discloser: none of it may be kept.
    const userAgent = `CanaryBrowser/${randomUUID()}`;
    const cookie = `tracker=${randomUUID()}`;
    // Behind the proxy the platform trusts (TRUST_PROXY), the discloser's own address arrives forwarded.
    const forwardedFor = `198.51.100.${1 + Math.floor(Math.random() * 254)}`;
    const referer = `https://intranet.example/${randomUUID()}`;
    const client = { 'user-agent': userAgent, cookie, 'x-forwarded-for': forwardedFor, referer };
    const company = await onboardedCompany();

    const credentials = await createIncidentCredentials(company.public_key);
    const fields = Object.fromEntries(encryptedFieldNames.map((name) => [name, `${canary} in ${name}`]));
    const created = await fetch(`${baseUrl}/api/incident/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...client },
      body: JSON.stringify({
        url_identifier: company.url_identifier,
        category_uuids: [company.categories[0].uuid],
        location_uuid: company.locations[0].uuid,
        ...credentials.payload,
        fields: await encryptReportFields(credentials.incident.publicKey, fields),
        report_anonymously: true,
      }),
    });
    expect(created.status).toBe(201);
    const { retrieval_id } = (await created.json()) as { retrieval_id: string };

    const authToken = await deriveDiscloserAuthToken(credentials.discloserPassphrase);
    const retrieval = new URLSearchParams({ url_identifier: company.url_identifier, retrieval_id });
    const opened = await fetch(`${baseUrl}/api/incident/discloser?${retrieval}`, {
      headers: { authorization: `Bearer ${authToken}`, ...client },
    });
    expect(opened.status).toBe(200);
    const view = (await opened.json()) as Parameters<typeof openIncidentAsDiscloser>[0] & {
      uuid: string;
      token: string;
      fields: { name: string; value: string }[];
    };
    // The canary does travel, encrypted: the discloser reads it back, so the checks below are not vacuous.
    const handle = await openIncidentAsDiscloser({ ...view, discloserPassphrase: credentials.discloserPassphrase });
    expect((await decryptReportFields(handle, view.fields)).every((field) => field.value.startsWith(canary))).toBe(
      true,
    );
    const session = { authorization: `Bearer ${view.token}`, ...client };

    const message = await fetch(`${baseUrl}/api/incident/message/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session },
      body: JSON.stringify({
        incident_uuid: view.uuid,
        content: await encryptContent(handle.publicKey, `${canary} in a message`, {
          kind: 'message',
          from: 'discloser',
        }),
      }),
    });
    expect(message.status).toBe(201);
    const { uuid: messageId } = (await message.json()) as { uuid: string };

    const fileContent = Buffer.from(`%PDF ${canary} in the file content `.repeat(1000));
    const encrypted = await encryptFile(handle.publicKey, fileContent, { fileName: `${canary}.pdf` });
    const uploaded = await fetch(`${baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE, ...session },
      body: fileUploadBody(encrypted, {
        incident_uuid: view.uuid,
        incident_message_uuid: messageId,
        mime_type: 'application/pdf',
        file_size: fileContent.length,
      }),
    });
    expect(uploaded.status).toBe(201);

    // The admin signs in, unlocks the company key, opens the case and writes back: a reply with a file, a
    // private note and a close motivation, each with the canary, each encrypted in the staff browser.
    const call = fetchCall(baseUrl);
    const signIn = await signInBody(call, company.admin.username, company.admin.password);
    const { token: staffToken } = (await (await postJson(baseUrl, '/api/account/token', signIn)).json()) as {
      token: string;
    };
    const companyPrivateKey = await openCompanyKey(
      call,
      staffToken,
      await unlockOwnKeys(call, staffToken, ADMIN_PASSWORD),
    );
    const caseView = (await staffCall(staffToken, 'GET', `/api/incident/${view.uuid}`)) as {
      keys: Parameters<typeof openIncidentAsCompany>[0];
      file_token: string;
    };
    const staffHandle = await openIncidentAsCompany({
      ...caseView.keys,
      companyPrivateKey,
    });
    const reply = (await staffCall(staffToken, 'POST', '/api/incident/message/', {
      incident_uuid: view.uuid,
      content: await encryptContent(staffHandle.publicKey, `${canary} in a staff reply`, {
        kind: 'message',
        from: 'staff',
      }),
      feedback: true,
    })) as { uuid: string };
    await staffCall(staffToken, 'POST', '/api/incident/note/', {
      incident_uuid: view.uuid,
      content: await encryptNote(staffHandle, `${canary} in a private note`),
    });
    // Issue #25 item 3: the note, as the server hands it back, is under the case's notes key (v3): the case team
    // reads it, the discloser's secret code does not open it.
    const [storedNote] = (await staffCall(staffToken, 'GET', `/api/incident/${view.uuid}/note`)) as {
      content: string;
    }[];
    expect(storedNote!.content).toMatch(/^v3\./);
    expect(await decryptNote(staffHandle, storedNote!.content)).toBe(`${canary} in a private note`);
    await expect(decryptNote(handle, storedNote!.content)).rejects.toThrow(DecryptionError);
    await staffCall(staffToken, 'PUT', `/api/incident/${view.uuid}/`, {
      status: 'CLOSED',
      outcome: 'substantiated',
      motivation: await encryptNote(staffHandle, `${canary} in a close motivation`, 'motivation'),
    });
    const staffFileContent = Buffer.from(`${canary} in a staff file`);
    const staffFile = await encryptFile(staffHandle.publicKey, staffFileContent, { fileName: `${canary}-answer.txt` });
    const staffUpload = await fetch(`${baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE, authorization: `Bearer ${caseView.file_token}` },
      body: fileUploadBody(staffFile, {
        incident_uuid: view.uuid,
        incident_message_uuid: reply.uuid,
        mime_type: 'text/plain',
        file_size: staffFileContent.length,
      }),
    });
    expect(staffUpload.status).toBe(201);

    // Every event has reached the audit log and the incident's file list before looking. The reply with
    // feedback and the closing are both `incident.updated`, so the wait is on the recorded actions.
    const expectedActions = [
      'file-uploaded',
      'file-uploaded',
      'incident-feedback-given',
      'incident-message-sent',
      'incident-message-sent',
      'incident-note-added',
      'incident-opened',
      'incident-reported',
      'incident-status-changed',
    ];
    const auditedIncidentEvents = async () =>
      (
        await test$.deps.db.query<{ action: string; object_id: string }>(
          "select action, object_id from audit.audit_event where company_id = $1 and name like 'incident.%' order by action",
          [company.companyId],
        )
      ).rows;
    await waitFor(async () => (await auditedIncidentEvents()).length >= expectedActions.length, {
      what: 'the incident events in the audit log',
    });
    await waitFor(
      async () =>
        (await test$.deps.db.query('select 1 from incident.file where incident_id = $1', [view.uuid])).rows.length > 0,
      { what: 'the file in the incident read model' },
    );

    const audited = await auditedIncidentEvents();
    expect(audited.map((row) => row.action)).toEqual(expectedActions);
    expect(audited.every((row) => row.object_id)).toBe(true);

    // The case mails leave through the notification service's queue: wait for them before reading the sink.
    await waitFor(() => mailer.sent.some((mail) => mail.subject.startsWith('New report #')), {
      what: 'the new-report mail',
    });
    const secrets = [...leakForms(canary), userAgent, cookie, referer, authToken, credentials.discloserPassphrase];
    const database = await dumpTables(test$.deps.db);
    // Every service's schema is in the dump.
    for (const schema of ['auth', 'incident', 'file', 'audit', 'notification'])
      expect(database).toMatch(new RegExp(`(^|\n)${schema}\\.`));
    const sinks: Record<string, string> = {
      database,
      events: JSON.stringify(events),
      logs: JSON.stringify(test$.deps.logger.entries),
      mails: JSON.stringify(mailer.sent),
    };
    const objectFiles = await filesUnder(path.join(running.dataDir, 'objects'));
    expect(objectFiles.length).toBeGreaterThan(0);
    for (const objectFile of objectFiles)
      sinks[`object ${path.basename(objectFile)}`] = (await readFile(objectFile)).toString('latin1');
    // The sinks hold the report, encrypted: a dump that missed the tables would prove nothing.
    expect(sinks.database).toContain(view.fields[0].value);
    expect(sinks.database).toContain(encrypted.encrypted_file_name);
    expect(
      Object.values(sinks).some((content) => content.includes(Buffer.from(encrypted.ciphertext).toString('latin1'))),
    ).toBe(true);
    // The welcome mail and the case mails went out: the mail sink was really watched.
    expect(mailer.sent.length).toBeGreaterThan(1);
    for (const [sink, content] of Object.entries(sinks)) {
      for (const secret of secrets) expect({ sink, leaked: content.includes(secret) }).toEqual({ sink, leaked: false });
    }
    // No client address is kept with a discloser's rows either, nor written to a log.
    expect(sinks.database).not.toContain('127.0.0.1');
    for (const sink of ['database', 'events', 'logs', 'mails'])
      expect({ sink, leaked: sinks[sink].includes(forwardedFor) }).toEqual({ sink, leaked: false });
    // Half of the secret code: the database needs it, the bus and the log do not.
    for (const sink of ['events', 'logs', 'mails'])
      expect({ sink, leaked: sinks[sink].includes(retrieval_id) }).toEqual({ sink, leaked: false });
    expect(events.filter((event) => event.name.startsWith('incident.')).length).toBe(9);
  });
});
