import { randomBytes } from 'node:crypto';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import {
  createIncidentCredentials,
  deriveDiscloserAuthToken,
  encryptReportFields,
  encryptFile,
  openIncidentAsDiscloser,
} from '@whistle/crypto';
import { waitFor } from '@whistle/service-kit/testing';
import { startCluster, type ClusterPlatform } from '../../src/cluster';
import { publicView } from '../../src/reports';
import { onboardCompany } from '../../src/staff';

/**
 * Issue 30: the object store (S3) goes away under a cluster (a process per service, S3 reached through a TCP
 * proxy that is cut as a restart or a network failure would). Uploads and downloads answer 503 with Retry-After
 * through the gateway, no service process crashes, no half object or orphan row is visible, and the same upload
 * and download succeed once the store is back.
 */
describe('cluster with the object store down', () => {
  let platform: ClusterPlatform;

  beforeAll(async () => {
    platform = await startCluster({ faults: true });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('when S3 is cut, then uploads and downloads answer 503 with Retry-After and nothing is stored; once back, both succeed', async () => {
    const { baseUrl } = platform;
    const company = await onboardCompany(platform);
    const view = await publicView(baseUrl, company.urlIdentifier);
    const credentials = await createIncidentCredentials(view.public_key);
    const body = {
      url_identifier: view.url_identifier,
      category_uuids: [view.categories.find((category) => category.parent_uuid === null)!.uuid],
      location_uuid: view.locations[0]!.uuid,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, { description: 'Ledgers altered after audit' }),
      report_anonymously: true,
    };
    // A company just onboarded reaches the incident service through its event: until then, 'Unknown company'.
    const created = await waitFor(
      async () => {
        const response = await fetch(`${baseUrl}/api/incident/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        return response.status === 201
          ? ((await response.json()) as { uuid: string; retrieval_id: string })
          : undefined;
      },
      { what: 'the report accepted', intervalMs: 200 },
    );
    const passphrase = credentials.discloserPassphrase;
    const query = new URLSearchParams({ url_identifier: company.urlIdentifier, retrieval_id: created.retrieval_id });
    const opened = await fetch(`${baseUrl}/api/incident/discloser?${query}`, {
      headers: { authorization: `Bearer ${await deriveDiscloserAuthToken(passphrase)}` },
    });
    expect(opened.status).toBe(200);
    const discloserView = (await opened.json()) as Parameters<typeof openIncidentAsDiscloser>[0] & { token: string };
    const handle = await openIncidentAsDiscloser({ ...discloserView, discloserPassphrase: passphrase });
    const call = (url: string, init: RequestInit = {}) =>
      fetch(`${baseUrl}${url}`, {
        ...init,
        headers: { accept: 'application/json', ...init.headers, authorization: `Bearer ${discloserView.token}` },
      });

    const evidence = randomBytes(7 * 1024 * 1024);
    const encrypted = await encryptFile(handle.publicKey, evidence, { fileName: 'ledger.xlsx' });
    const upload = () =>
      call('/api/incident/file/', {
        method: 'POST',
        headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE },
        body: JSON.stringify({
          incident_uuid: created.uuid,
          incident_message_uuid: null,
          mime_type: 'application/octet-stream',
          file_size: evidence.length,
          file_name: encrypted.encrypted_file_name,
          encrypted_key: encrypted.encrypted_key,
          content: Buffer.from(encrypted.ciphertext).toString('base64'),
        }),
      });
    const files = async () => ((await (await call(`/api/incident/${created.uuid}/file`)).json()) as unknown[]).length;

    await platform.faults!.objects.cut();
    const refused = await upload();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({ message: 'The file store is unavailable, please try again shortly' });
    await platform.faults!.objects.restore();

    const stored = await upload();
    expect(stored.status).toBe(201);
    const { uuid } = (await stored.json()) as { uuid: string };
    await waitFor(async () => ((await files()) === 1 ? true : undefined), { what: 'the file in the case’s list' });

    await platform.faults!.objects.cut();
    const unavailable = await call(`/api/incident/file/${uuid}`, { headers: { accept: 'application/octet-stream' } });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('5');
    await platform.faults!.objects.restore();

    const download = await call(`/api/incident/file/${uuid}`, { headers: { accept: 'application/octet-stream' } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(encrypted.ciphertext))).toBe(true);
    // One file in the case: the refused upload left no row.
    expect(await files()).toBe(1);
    // No service process died; the file service logged the outage, not a stack per request.
    for (const running of platform.processes) expect(running.child.exitCode).toBeNull();
    const fileLog = platform.processes.find((running) => running.name === 'file')!.output();
    expect(fileLog).toContain(
      'The object store (S3) is unreachable; uploads and downloads answer 503 until it is back',
    );
    expect(fileLog).not.toContain('"level":50');
  });
});
