import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DiskObjectStore, S3ObjectStore, type ObjectStore } from '@whistle/object-store';
import { encryptFile } from '@whistle/crypto';
import {
  createOutbox,
  messagingMigrations,
  migrate,
  type NewEvent,
  type Queryable,
  type WhistleService,
} from '@whistle/service-kit';
import { serveService, type TestDependencies, type TestStack } from '@whistle/service-kit/testing';
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
export async function startFile(
  deps: FileDependencies,
  publicKeyPem: string,
  {
    env = {},
    trustProxy,
    bodyIdleTimeoutMs,
  }: { env?: Record<string, string>; trustProxy?: boolean; bodyIdleTimeoutMs?: number } = {},
): Promise<RunningFile> {
  const service = createFileService(deps, fileConfigSchema.parse({ DISCLOSER_TOKEN_PUBLIC_KEY: publicKeyPem, ...env }));
  return { service, ...(await serveService(service, deps.logger, { trustProxy, bodyIdleTimeoutMs })) };
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

/** The rows of a table: a refused upload must leave none behind. */
export async function countRows(db: Queryable, table: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`select count(*)::int as count from ${table}`);
  return rows[0].count;
}

/**
 * The upload body as the browser sends it: spec fields, the name and key encrypted for the incident's
 * `publicKey`, base64 ciphertext; `overrides` replace fields (a message, a wrong value).
 */
export async function encryptedUploadBody(
  publicKey: string,
  incidentId: string,
  plaintext: Uint8Array,
  overrides: Record<string, unknown> = {},
) {
  const encrypted = await encryptFile(publicKey, plaintext, { fileName: 'evidence.pdf' });
  return {
    encrypted,
    body: {
      incident_uuid: incidentId,
      incident_message_uuid: null,
      mime_type: 'application/pdf',
      file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      file_size: plaintext.length,
      content: Buffer.from(encrypted.ciphertext).toString('base64'),
      ...overrides,
    } as Record<string, unknown>,
  };
}

/**
 * Publishes events as the incident service does: through a real outbox, in a `producer` schema standing in
 * for the incident service's. Answers the envelope, to send again.
 */
export async function incidentServiceEvents(test$: TestDependencies) {
  await migrate(test$.deps.db, 'producer', messagingMigrations('producer'));
  return async (event: NewEvent) => {
    const envelope = await test$.deps.db.transaction((tx) => createOutbox('producer').add(tx, event));
    await test$.deps.bus.publish(envelope);
    return envelope;
  };
}

/** Announces messages as the incident service does (incident.message.created): answers each new message's id. */
export async function messageAnnouncer(test$: TestDependencies) {
  const publish = await incidentServiceEvents(test$);
  return async (session: { companyId: string; incidentId: string }, messageId = randomUUID()): Promise<string> => {
    await publish({
      name: 'incident.message.created',
      company_id: session.companyId,
      payload: { incident_id: session.incidentId, incident_message_id: messageId, sender_source: 'DISCLOSER' },
      actor: { type: 'DISCLOSER' },
    });
    return messageId;
  };
}
