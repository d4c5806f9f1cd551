import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DiskObjectStore, S3ObjectStore, type ObjectStore } from '@whistle/object-store';
import type { WhistleService } from '@whistle/service-kit';
import { serveService, type TestStack } from '@whistle/service-kit/testing';
import { startS3Server } from '@whistle/test-support';
import { generateDiscloserTokenKeys, signDiscloserToken } from '@whistle/tokens/testing';
import { fileConfigSchema } from '../src/config';
import { createFileService, type FileDependencies } from '../src/service';

/** An object store the test can list and read raw: an S3 API (s3rver) on the cluster stack, a folder otherwise. */
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
  if (stack === 'pglite+in-process') {
    const directory = await mkdtemp(path.join(tmpdir(), 'whistle-file-test-'));
    const objects = new DiskObjectStore(directory);
    return {
      objects,
      keys: () => listFiles(directory),
      read: (key) => readFile(path.join(directory, ...key.split('/'))),
      dispose: () => rm(directory, { recursive: true, force: true }),
    };
  }
  const server = await startS3Server();
  const bucket = 'whistle-test-files';
  const objects = new S3ObjectStore({ ...server, bucket });
  await objects.ensureBucket();
  // Read back with a client of its own, with the settings that keep S3-compatible servers from storing framing.
  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    objects,
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!);
    },
    async read(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    async dispose() {
      client.destroy();
      await objects.close();
      await server.stop();
    },
  };
}

export interface RunningFile {
  baseUrl: string;
  service: WhistleService;
  close(): Promise<void>;
}

/** The file service served on a loopback port as `runService` serves it (with its upload body type). */
export async function startFile(deps: FileDependencies, publicKeyPem: string): Promise<RunningFile> {
  const service = createFileService(deps, fileConfigSchema.parse({ DISCLOSER_TOKEN_PUBLIC_KEY: publicKeyPem }));
  return { service, ...(await serveService(service, deps.logger)) };
}

/**
 * Incident session tokens as the incident service signs them, for incidents the test makes up: a
 * discloser's, or with `staffUserId` a staff member's file token.
 */
export function discloserTokens() {
  const keys = generateDiscloserTokenKeys();
  const sign = (claims: { incidentId: string; companyId: string; staffUserId?: string }) =>
    signDiscloserToken(keys.privateKeyPem, claims);
  return {
    publicKeyPem: keys.publicKeyPem,
    sign,
    async forNewIncident(companyId = randomUUID()) {
      const incidentId = randomUUID();
      return { incidentId, companyId, token: await sign({ incidentId, companyId }) };
    },
    /** A staff member's file token for the same incident as `session`. */
    async staffOf<S extends { incidentId: string; companyId: string }>(session: S, staffUserId: string = randomUUID()) {
      return { ...session, staffUserId, token: await sign({ ...session, staffUserId }) };
    },
  };
}
