import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FILE_UPLOAD_CONTENT_TYPE, type CompanyPublicView } from '@whistle/contracts';
import {
  createIncidentCredentials,
  decryptContent,
  decryptReportFields,
  decryptFile,
  deriveDiscloserAuthToken,
  encryptContent,
  encryptReportFields,
  encryptFile,
  openIncidentAsCompany,
  openIncidentAsDiscloser,
  type IncidentCredentials,
} from '@whistle/crypto';
import { testDatabaseUrl, waitFor } from '@whistle/service-kit/testing';
import { fetchCall, openCompanyKey, startS3Server, unlockOwnKeys, type TestS3Server } from '@whistle/test-support';
import { startCluster, type ClusterPlatform } from '../../src/cluster';
import { fileUploadBody, publicView } from '../../src/reports';
import { apiToken, onboardCompany, STAFF_PASSWORD } from '../../src/staff';

const run = promisify(execFile);
// Every request of this test comes from one address: the report limit must not count the retries below.
const limits = { REPORT_LIMIT_PER_CLIENT: '1000' };

/** A fresh database made with `createdb`, as docs/operations.md does it, on the test server. */
async function createDatabase(name: string) {
  const admin = testDatabaseUrl();
  await run('createdb', [`--maintenance-db=${admin}`, name]);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => run('dropdb', ['--force', '--if-exists', `--maintenance-db=${admin}`, name]).then(() => undefined),
  };
}

interface FiledReport {
  uuid: string;
  retrievalId: string;
  credentials: IncidentCredentials;
  description: string;
}

/** A report as the discloser's browser files it; what the discloser keeps (the secret code) comes back. */
async function fileReport(baseUrl: string, view: CompanyPublicView, description: string): Promise<FiledReport> {
  const credentials = await createIncidentCredentials(view.public_key);
  const body = JSON.stringify({
    url_identifier: view.url_identifier,
    category_uuids: [view.categories.find((category) => category.parent_uuid === null)!.uuid],
    location_uuid: view.locations[0]!.uuid,
    ...credentials.payload,
    fields: await encryptReportFields(credentials.incident.publicKey, { description }),
    report_anonymously: true,
  });
  // A company just onboarded reaches the incident service through its event: until then, 'Unknown company'.
  const created = await waitFor(
    async () => {
      const response = await fetch(`${baseUrl}/api/incident/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      if (response.status === 201) return (await response.json()) as { uuid: string; retrieval_id: string };
      const refusal = await response.text();
      if (!refusal.includes('Unknown company')) throw new Error(`The report answered ${response.status}: ${refusal}`);
      return undefined;
    },
    { what: 'the report accepted', intervalMs: 200 },
  );
  return { uuid: created.uuid, retrievalId: created.retrieval_id, credentials, description };
}

/** The discloser opens their report with the secret code (retrieval id + passphrase), as the status page does. */
async function openAsDiscloser(baseUrl: string, urlIdentifier: string, report: FiledReport) {
  const query = new URLSearchParams({ url_identifier: urlIdentifier, retrieval_id: report.retrievalId });
  const response = await fetch(`${baseUrl}/api/incident/discloser?${query}`, {
    headers: { authorization: `Bearer ${await deriveDiscloserAuthToken(report.credentials.discloserPassphrase)}` },
  });
  expect(response.status).toBe(200);
  const view = (await response.json()) as Parameters<typeof openIncidentAsDiscloser>[0] & {
    uuid: string;
    token: string;
    fields: { name: string; value: string }[];
  };
  const handle = await openIncidentAsDiscloser({
    ...view,
    discloserPassphrase: report.credentials.discloserPassphrase,
  });
  const call = (url: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${url}`, {
      ...init,
      headers: { accept: 'application/json', ...init.headers, authorization: `Bearer ${view.token}` },
    });
  return { view, handle, call };
}

/**
 * The backup drill of docs/operations.md, for real: the cluster (a process per service on PostgreSQL, RabbitMQ
 * and an S3 API) takes reports, messages and a file; `pg_dump -Fc` backs its database up while it runs; the
 * dump is restored with `pg_restore` into a fresh database, the original is dropped, and the services start on
 * the restored one beside the same object store and with the same Secret. The discloser still opens the report
 * with their secret code, reads the thread and downloads the file; staff still list and open the case.
 */
describe('backup and restore', () => {
  let objectStore: TestS3Server;
  let restored: { url: string; drop(): Promise<void> } | undefined;
  let backupDir: string;
  let original: ClusterPlatform | undefined;
  let restoredCluster: ClusterPlatform | undefined;

  beforeAll(async () => {
    objectStore = await startS3Server({ buckets: ['whistle-files'] });
    backupDir = await mkdtemp(path.join(tmpdir(), 'whistle-backup-'));
  });
  afterAll(async () => {
    await restoredCluster?.stop();
    await original?.stop();
    await restored?.drop();
    await objectStore?.stop();
    await rm(backupDir, { recursive: true, force: true });
  });

  it('when the database is dumped while running and restored into a fresh one beside the same object store, then disclosers and staff find everything', async () => {
    original = await startCluster({ objectStore, env: limits });
    const company = await onboardCompany(original);
    const view = await publicView(original.baseUrl, company.urlIdentifier);
    const reports = [
      await fileReport(original.baseUrl, view, 'Invoices approved without any delivery'),
      await fileReport(original.baseUrl, view, 'Safety checks skipped on the night shift'),
    ];

    const discloser = await openAsDiscloser(original.baseUrl, company.urlIdentifier, reports[0]!);
    const sent = await discloser.call('/api/incident/message/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        incident_uuid: reports[0]!.uuid,
        content: await encryptContent(discloser.handle.publicKey, 'The supplier is the manager’s brother', {
          kind: 'message',
          from: 'discloser',
        }),
      }),
    });
    expect(sent.status).toBe(201);
    const message = (await sent.json()) as { uuid: string };
    const evidence = Buffer.from('%PDF-1.7 invoice 2026-0042, paid twice '.repeat(500));
    const encrypted = await encryptFile(discloser.handle.publicKey, evidence, { fileName: 'invoice-0042.pdf' });
    const uploaded = await discloser.call('/api/incident/file/', {
      method: 'POST',
      headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE },
      body: fileUploadBody(encrypted, {
        incident_uuid: reports[0]!.uuid,
        incident_message_uuid: message.uuid,
        mime_type: 'application/pdf',
        file_size: evidence.length,
      }),
    });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { uuid: string };
    // The incident service lists the file once incident.file.created reached it: back up after that.
    await waitFor(
      async () =>
        ((await (await discloser.call(`/api/incident/${reports[0]!.uuid}/file`)).json()) as unknown[]).length === 1,
      { what: 'the file in the case’s file list' },
    );

    // The backup, while the services run (the commands of docs/operations.md).
    const dump = path.join(backupDir, 'whistle.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${original.databaseUrl}`]);
    expect((await stat(dump)).size).toBeGreaterThan(0);
    const secrets = original.secrets;
    await original.stop();
    original = undefined;

    restored = await createDatabase(`whistle_restored_${randomBytes(6).toString('hex')}`);
    await run('pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${restored.url}`, dump]);
    restoredCluster = await startCluster({ databaseUrl: restored.url, objectStore, env: { ...limits, ...secrets } });
    const baseUrl = restoredCluster.baseUrl;

    // The discloser: the report, the thread and the file, with the secret code alone.
    const again = await openAsDiscloser(baseUrl, company.urlIdentifier, reports[0]!);
    expect(await decryptReportFields(again.handle, again.view.fields)).toEqual([
      expect.objectContaining({ name: 'description', value: reports[0]!.description }),
    ]);
    const thread = (await (await again.call(`/api/incident/${reports[0]!.uuid}/message`)).json()) as {
      uuid: string;
      content: string;
    }[];
    expect(thread.map((each) => each.uuid)).toEqual([message.uuid]);
    expect(await decryptContent(again.handle, thread[0]!.content, { kind: 'message', from: 'discloser' })).toBe(
      'The supplier is the manager’s brother',
    );
    const download = await again.call(`/api/incident/file/${file.uuid}`, {
      headers: { accept: 'application/octet-stream' },
    });
    expect(download.status).toBe(200);
    const opened = await decryptFile(again.handle, {
      ciphertext: new Uint8Array(await download.arrayBuffer()),
      encrypted_key: download.headers.get('x-whistle-encrypted-key')!,
      encrypted_file_name: download.headers.get('x-whistle-encrypted-file-name')!,
    });
    expect(opened.fileName).toBe('invoice-0042.pdf');
    expect(Buffer.from(opened.content).equals(evidence)).toBe(true);

    // Staff: sign in with the same password, list both cases, open one with the company key.
    const staffToken = await apiToken(baseUrl, company.adminEmail);
    const staff = (url: string) =>
      fetch(`${baseUrl}${url}`, { headers: { accept: 'application/json', authorization: `Bearer ${staffToken}` } });
    const list = (await (await staff('/api/incident/')).json()) as { count: number; results: { uuid: string }[] };
    expect(list.results.map((each) => each.uuid).sort()).toEqual(reports.map((report) => report.uuid).sort());
    // The admin's browser: the person's keys unlocked with the password, the company key opened from their grant.
    const call = fetchCall(baseUrl);
    const companyPrivateKey = await openCompanyKey(
      call,
      staffToken,
      await unlockOwnKeys(call, staffToken, STAFF_PASSWORD),
    );
    const caseView = (await (await staff(`/api/incident/${reports[1]!.uuid}`)).json()) as {
      keys: Parameters<typeof openIncidentAsCompany>[0];
      fields: { name: string; value: string }[];
    };
    const staffHandle = await openIncidentAsCompany({
      ...caseView.keys,
      companyPrivateKey,
    });
    expect(await decryptReportFields(staffHandle, caseView.fields)).toEqual([
      expect.objectContaining({ name: 'description', value: reports[1]!.description }),
    ]);

    // And the restored platform goes on: a new report is filed and numbered after the restored ones.
    const next = await fileReport(baseUrl, view, 'A third report, after the restore');
    const nextCase = (await (await staff(`/api/incident/${next.uuid}`)).json()) as { display_report_number: number };
    expect(nextCase.display_report_number).toBe(3);
  });
});
