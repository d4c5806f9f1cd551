import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import { createCompanyCredentials, createIncidentCredentials, type IncidentCredentials } from '@whistle/crypto';
import { S3ObjectStore } from '@whistle/object-store';
import {
  createTcpProxy,
  createTestDependencies,
  type TcpProxy,
  type TestDependencies,
  waitFor,
} from '@whistle/service-kit/testing';
import { startS3Server, type TestS3Server } from '@whistle/test-support';
import { countRows, discloserTokens, encryptedUploadBody, startFile, type RunningFile } from './support';

type Session = Awaited<ReturnType<ReturnType<typeof discloserTokens>['forNewIncident']>>;

/**
 * The object store down (issue 30, item 1): the file service reaches a real S3 API (s3rver) through a TCP
 * proxy that the tests cut, as a restart or a network failure would. Uploads and downloads answer 503 with
 * Retry-After, leave nothing behind and succeed when tried again after the store is back.
 */
describe('file service with the object store down (postgres+rabbitmq, S3)', () => {
  let test$: TestDependencies;
  let s3: TestS3Server;
  let proxy: TcpProxy;
  let objects: S3ObjectStore;
  let lister: S3Client;
  let file: RunningFile;
  let incidentKeys: IncidentCredentials;
  const tokens = discloserTokens();
  const bucket = 'outage-files';

  beforeAll(async () => {
    test$ = await createTestDependencies('postgres+rabbitmq');
    s3 = await startS3Server({ buckets: [bucket] });
    const { port } = new URL(s3.endpoint);
    proxy = await createTcpProxy({ host: '127.0.0.1', port: Number(port) });
    objects = new S3ObjectStore({
      ...s3,
      endpoint: `http://${proxy.address.host}:${proxy.address.port}`,
      bucket,
      logger: test$.deps.logger,
    });
    // Lists the bucket directly, past the proxy: what S3 holds whatever the proxy does.
    lister = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    file = await startFile({ ...test$.deps, objects }, tokens.publicKeyPem, { bodyIdleTimeoutMs: 500 });
    incidentKeys = await createIncidentCredentials((await createCompanyCredentials()).credential.public_key);
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    await file?.close();
    await objects?.close();
    lister?.destroy();
    await proxy?.close();
    await s3?.stop();
    await test$?.dispose();
  });

  const objectKeys = async () =>
    ((await lister.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((each) => each.Key);
  const snapshot = async () => ({
    rows: await countRows(test$.deps.db, 'file.file'),
    outbox: await countRows(test$.deps.db, 'file.outbox'),
    objects: (await objectKeys()).length,
  });
  const uploadBody = async (session: Session, size: number) =>
    JSON.stringify(
      (await encryptedUploadBody(incidentKeys.incident.publicKey, session.incidentId, randomBytes(size))).body,
    );
  const upload = (session: Session, body: BodyInit) =>
    fetch(`${file.baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE, authorization: `Bearer ${session.token}` },
      body,
      duplex: 'half',
    } as RequestInit);
  const outageLines = () =>
    test$.deps.logger.entries.filter((entry) =>
      /object store \(S3\) is (unreachable|reachable again)/.test(entry.message),
    );

  async function expect503(response: Response) {
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ message: 'The file store is unavailable, please try again shortly' });
  }

  test('when an upload is sent while S3 is down, then 503 with Retry-After, nothing is stored, and the same upload succeeds once S3 is back', async () => {
    const session = await tokens.forNewIncident();
    const body = await uploadBody(session, 200_000);
    const before = await snapshot();
    const linesBefore = outageLines().length;

    await proxy.cut();
    await expect503(await upload(session, body));
    // The outage is logged once, not per request; the second refusal adds no line.
    await expect503(await upload(session, body));
    await proxy.restore();
    expect(await snapshot()).toEqual(before);

    const retried = await upload(session, body);
    expect(retried.status).toBe(201);
    expect((await snapshot()).rows).toBe(before.rows + 1);
    expect(
      outageLines()
        .slice(linesBefore)
        .map((entry) => [entry.level, entry.message]),
    ).toEqual([
      ['warn', 'The object store (S3) is unreachable; uploads and downloads answer 503 until it is back'],
      ['info', 'The object store (S3) is reachable again'],
    ]);
    expect(test$.deps.logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  test('when S3 is cut while a 12 MB upload streams, then 503, no row and no object, and a retry succeeds', async () => {
    const session = await tokens.forNewIncident();
    const body = Buffer.from(await uploadBody(session, 12_000_000));
    const before = await snapshot();
    const piece = 256 * 1024;
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // Past the first 5 MiB part (already on its way to S3), the store goes away; the rest of the body follows.
        if (sent >= 9 * 1024 * 1024 && sent - piece < 9 * 1024 * 1024) await proxy.cut();
        if (sent >= body.length) return controller.close();
        controller.enqueue(body.subarray(sent, sent + piece));
        sent += piece;
      },
    });
    await expect503(await upload(session, stream));
    await proxy.restore();
    expect(await snapshot()).toEqual(before);

    expect((await upload(session, body)).status).toBe(201);
    expect((await snapshot()).rows).toBe(before.rows + 1);
  });

  test('when an upload body stalls half-way (a slow client), then 408 within the idle timeout, no row and no object, and the same upload succeeds after', async () => {
    const session = await tokens.forNewIncident();
    const body = Buffer.from(await uploadBody(session, 6_000_000));
    const before = await snapshot();
    const socket = net.connect(Number(new URL(file.baseUrl).port), '127.0.0.1');
    socket.on('error', () => undefined);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = once(socket, 'close');
    const started = Date.now();
    socket.write(
      `POST /api/incident/file/ HTTP/1.1\r\nHost: x\r\nContent-Type: ${FILE_UPLOAD_CONTENT_TYPE}\r\n` +
        `Authorization: Bearer ${session.token}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // Past the first 5 MiB part (sent to S3 as a multipart upload), then nothing more.
    socket.write(body.subarray(0, Math.floor(body.length * 0.9)));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(async () => JSON.stringify(await snapshot()) === JSON.stringify(before), {
      what: 'the stalled upload cleaned up',
    });

    expect((await upload(session, body)).status).toBe(201);
  });

  test('when an upload arrives slowly but steadily for many idle timeouts in all, then it is stored: the idle timer restarts on each piece', async () => {
    const session = await tokens.forNewIncident();
    const body = Buffer.from(await uploadBody(session, 3000));
    const before = await snapshot();
    const socket = net.connect(Number(new URL(file.baseUrl).port), '127.0.0.1');
    socket.on('error', () => undefined);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = once(socket, 'close');
    socket.write(
      `POST /api/incident/file/ HTTP/1.1\r\nHost: x\r\nContent-Type: ${FILE_UPLOAD_CONTENT_TYPE}\r\n` +
        `Authorization: Bearer ${session.token}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // 20 pieces 250 ms apart: each gap half the 500 ms idle timeout, about ten idle timeouts in all.
    const pieces = 20;
    const pieceSize = Math.ceil(body.length / pieces);
    for (let offset = 0; offset < body.length; offset += pieceSize) {
      await sleep(250);
      socket.write(body.subarray(offset, offset + pieceSize));
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect((await snapshot()).rows).toBe(before.rows + 1);
  });

  /** An upload whose body trickles (a byte every 100 ms, within the idle timeout): it stays under way until closed. */
  async function trickledUpload(session: Session) {
    const body = await uploadBody(session, 1000);
    const socket = net.connect(Number(new URL(file.baseUrl).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /api/incident/file/ HTTP/1.1\r\nHost: x\r\nContent-Type: ${FILE_UPLOAD_CONTENT_TYPE}\r\n` +
        `Authorization: Bearer ${session.token}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    const timer = setInterval(() => socket.write(body.slice(sent, ++sent)), 100);
    return () => {
      clearInterval(timer);
      socket.destroy();
    };
  }

  test('when a discloser has 2 uploads under way, then a third answers 429 until one ends; one address has at most 10', async () => {
    const session = await tokens.forNewIncident();
    const closers = [await trickledUpload(session), await trickledUpload(session)];
    await sleep(300);
    const third = await upload(session, await uploadBody(session, 1000));
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({
      message: 'Too many files are being sent at once, please wait for one to finish',
    });
    closers.pop()!();
    await waitFor(
      async () => ((await upload(session, await uploadBody(session, 1000))).status === 201 ? true : undefined),
      {
        what: 'an upload accepted once one of the two ended',
      },
    );

    // Other disclosers from the same address (the test's): 10 under way in all, the 11th waits.
    const others = await Promise.all(Array.from({ length: 9 }, () => tokens.forNewIncident()));
    closers.push(...(await Promise.all(others.map((other) => trickledUpload(other)))));
    await sleep(300);
    const eleventh = await tokens.forNewIncident();
    expect((await upload(eleventh, await uploadBody(eleventh, 1000))).status).toBe(429);
    for (const close of closers) close();
    await waitFor(
      async () => ((await upload(eleventh, await uploadBody(eleventh, 1000))).status === 201 ? true : undefined),
      {
        what: 'an upload accepted once the others ended',
      },
    );
  });

  test('when S3 is cut while a download streams, then the client sees the answer aborted (not a hang, not a short file passed off as whole), the download stays on the record, the outage is logged once and a retry succeeds', async () => {
    const session = await tokens.forNewIncident();
    const created = await upload(session, await uploadBody(session, 16_000_000));
    expect(created.status).toBe(201);
    const { uuid } = (await created.json()) as { uuid: string };
    const downloads = async () =>
      (
        await test$.deps.db.query<{ count: number }>(
          "select count(*)::int as count from file.outbox where name = 'incident.file.downloaded' and payload->>'incident_file_id' = $1",
          [uuid],
        )
      ).rows[0].count;
    const download = () =>
      fetch(`${file.baseUrl}/api/incident/file/${uuid}`, { headers: { authorization: `Bearer ${session.token}` } });
    const linesBefore = outageLines().length;
    const errorsBefore = test$.deps.logger.entries.filter((entry) => entry.level === 'error').length;

    const answer = await download();
    expect(answer.status).toBe(200);
    const announced = Number(answer.headers.get('content-length'));
    const reader = answer.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    // After the first bytes, the store goes away.
    await proxy.cut();
    let received = first.value!.byteLength;
    const rest = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return received;
        received += value.byteLength;
      }
    })();
    await expect(rest).rejects.toThrow();
    expect(received).toBeLessThan(announced);
    // The object was opened: as documented, that download is on the record (only one the store refused is not).
    expect(await downloads()).toBe(1);
    await proxy.restore();

    const retried = await download();
    expect(retried.status).toBe(200);
    expect((await retried.arrayBuffer()).byteLength).toBe(announced);
    expect(await downloads()).toBe(2);
    expect(
      outageLines()
        .slice(linesBefore)
        .map((entry) => [entry.level, entry.message]),
    ).toEqual([
      ['warn', 'The object store (S3) is unreachable; uploads and downloads answer 503 until it is back'],
      ['info', 'The object store (S3) is reachable again'],
    ]);
    expect(test$.deps.logger.entries.filter((entry) => entry.level === 'error').slice(errorsBefore)).toEqual([]);
  });

  test('when a download is asked while S3 is down, then 503 with Retry-After, no download on the record, and it succeeds once S3 is back', async () => {
    const session = await tokens.forNewIncident();
    const created = await upload(session, await uploadBody(session, 50_000));
    expect(created.status).toBe(201);
    const { uuid } = (await created.json()) as { uuid: string };
    const downloads = async () =>
      (
        await test$.deps.db.query<{ count: number }>(
          "select count(*)::int as count from file.outbox where name = 'incident.file.downloaded' and payload->>'incident_file_id' = $1",
          [uuid],
        )
      ).rows[0].count;
    const download = () =>
      fetch(`${file.baseUrl}/api/incident/file/${uuid}`, { headers: { authorization: `Bearer ${session.token}` } });

    await proxy.cut();
    await expect503(await download());
    expect(await downloads()).toBe(0);
    await proxy.restore();

    const answer = await download();
    expect(answer.status).toBe(200);
    expect((await answer.arrayBuffer()).byteLength).toBe(Number(answer.headers.get('content-length')));
    expect(await downloads()).toBe(1);
  });
});
