import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import {
  createDiscloserTokenSigner,
  DiskObjectStore,
  generateDiscloserTokenKeys,
  S3ObjectStore,
  type ObjectStore,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import { serveService, type TestStack } from '@whistle/service-kit/testing';
import { fileConfigSchema } from '../src/config';
import { createFileService } from '../src/service';

/** An object store the test can list and read raw: s3rver (S3 API) on the cluster stack, a folder otherwise. */
export interface InspectableStore {
  objects: ObjectStore;
  keys(): Promise<string[]>;
  read(key: string): Promise<Buffer>;
  dispose(): Promise<void>;
}

async function listFiles(root: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true }).catch(() => []);
  const keys: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) keys.push(...(await listFiles(root, key)));
    else keys.push(key);
  }
  return keys;
}

export async function createInspectableStore(stack: TestStack): Promise<InspectableStore> {
  const directory = await mkdtemp(path.join(tmpdir(), 'whistle-file-test-'));
  if (stack === 'pglite+in-process') {
    const objects = new DiskObjectStore(directory);
    return {
      objects,
      keys: () => listFiles(directory),
      read: (key) => readFile(path.join(directory, ...key.split('/'))),
      dispose: () => rm(directory, { recursive: true, force: true }),
    };
  }
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = (await server.run()) as AddressInfo;
  const options = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: 'whistle-test-files',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  const objects = new S3ObjectStore(options);
  await objects.ensureBucket();
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    objects,
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: options.bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!);
    },
    async read(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    async dispose() {
      client.destroy();
      await objects.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export interface RunningFile {
  baseUrl: string;
  service: WhistleService;
  close(): Promise<void>;
}

/** The file service served on a loopback port as `runService` serves it (with its upload body type). */
export async function startFile(deps: ServiceDependencies, publicKeyPem: string): Promise<RunningFile> {
  const service = createFileService(deps, fileConfigSchema.parse({ DISCLOSER_TOKEN_PUBLIC_KEY: publicKeyPem }));
  return { service, ...(await serveService(service, deps.logger)) };
}

/** Discloser session tokens as the incident service signs them, for incidents the test makes up. */
export function discloserTokens() {
  const keys = generateDiscloserTokenKeys();
  const signer = createDiscloserTokenSigner(keys.privateKeyPem);
  return {
    publicKeyPem: keys.publicKeyPem,
    async forNewIncident(companyId = randomUUID()) {
      const incidentId = randomUUID();
      const { token } = await signer.sign({ incidentId, companyId });
      return { incidentId, companyId, token };
    },
  };
}
