import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createRecordingLogger, createTcpProxy, waitFor, type TcpProxy } from '@whistle/service-kit/testing';
import { startS3Server, type TestS3Server } from '@whistle/test-support';
import { S3ObjectStore } from '../src/s3-object-store';

/**
 * Multipart uploads cut by an outage (issue 30, item 4): the store was down when the failed upload's abort was sent,
 * so its parts stay. When the store is back they are aborted; uploads still young, or under another prefix, are not.
 */
describe('the S3 store sweeping abandoned multipart uploads', () => {
  const bucket = 'sweep-files';
  const ageMs = 1500;
  let s3: TestS3Server;
  let proxy: TcpProxy;
  let direct: S3Client;
  let store: S3ObjectStore;
  const logger = createRecordingLogger();

  beforeAll(async () => {
    s3 = await startS3Server({ buckets: [bucket] });
    proxy = await createTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
    store = new S3ObjectStore({
      ...s3,
      endpoint: `http://${proxy.address.host}:${proxy.address.port}`,
      bucket,
      logger,
      keyPrefix: 'company/',
      abandonedUploadAgeMs: ageMs,
    });
    // Past the proxy: what S3 holds whatever the proxy does.
    direct = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
  });
  afterAll(async () => {
    await store?.close();
    direct?.destroy();
    await proxy?.close();
    await s3?.stop();
  });

  const pending = async () =>
    ((await direct.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []).map((u) => u.Key).sort();
  /** A multipart upload with one part and no end: one a replica is sending now, or one whose owner is gone. */
  const startUpload = async (key: string) => {
    const { UploadId } = await direct.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    await direct.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: Buffer.alloc(1024, 7) }),
    );
  };

  it('when S3 comes back after cutting a 12 MB upload, then its parts are aborted, and later those of an upload too young to tell at that moment; another prefix is left alone', async () => {
    await startUpload('elsewhere/not-ours');
    // Cut past the first 5 MiB part: the upload fails, and so does its abort (the store is down).
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent === 6 * 1024 * 1024) void proxy.cut();
        if (sent >= 12 * 1024 * 1024) return this.push(null);
        sent += 256 * 1024;
        this.push(Buffer.alloc(256 * 1024, 1));
      },
    });
    await expect(store.put('company/c1/file/cut', body, { size: 12 * 1024 * 1024 })).rejects.toMatchObject({
      status: 503,
    });
    expect(await pending()).toEqual(['company/c1/file/cut', 'elsewhere/not-ours']);

    await sleep(ageMs + 200);
    // Started now by another replica: under way, not abandoned.
    await startUpload('company/c2/file/under-way');
    await proxy.restore();
    // The first call that reaches the store ends the outage.
    await store.ready();
    await waitFor(async () => !(await pending()).includes('company/c1/file/cut'), { what: 'the cut upload aborted' });
    expect(await pending()).toEqual(['company/c2/file/under-way', 'elsewhere/not-ours']);

    // Once it is old enough to be abandoned, the sweep that follows the first one removes it too.
    await waitFor(async () => !(await pending()).includes('company/c2/file/under-way'), {
      what: 'the second sweep',
      timeoutMs: ageMs * 4,
    });
    expect(await pending()).toEqual(['elsewhere/not-ours']);
    expect(
      logger.entries.filter((entry) => /multipart/.test(entry.message)).map((entry) => [entry.level, entry.message]),
    ).toEqual([
      ['info', 'Aborted the multipart uploads left by uploads cut short'],
      ['info', 'Aborted the multipart uploads left by uploads cut short'],
    ]);
  });
});
