import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { multipartUploadCalls, type S3rverContext } from './s3-multipart-uploads';

export interface TestS3Server {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  stop(): Promise<void>;
}

/**
 * An S3 API (s3rver) on 127.0.0.1 at a free port, storing under a temporary folder; `buckets` exist from the start.
 * ListMultipartUploads and AbortMultipartUpload are added (multipartUploadCalls).
 */
export async function startS3Server({ buckets = [] }: { buckets?: readonly string[] } = {}): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  // Before s3rver's router (its last middleware), which would answer these calls NotImplemented.
  const { middleware } = server as unknown as {
    middleware: ((ctx: S3rverContext, next: () => Promise<unknown>) => unknown)[];
  };
  middleware.splice(middleware.length - 1, 0, multipartUploadCalls(directory));
  const { port } = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    // s3rver's fixed credentials; it verifies request signatures with them.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
