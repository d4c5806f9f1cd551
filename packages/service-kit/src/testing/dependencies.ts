import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../database/open-database';
import { DiskObjectStore } from '../objects/disk-object-store';
import { openEventBus } from '../messaging/open-event-bus';
import type { MailMessage, Mailer } from '../mail/mailer';
import type { ServiceDependencies } from '../service';
import { createTestDatabase } from './postgres';
import { deleteRabbitTopology, testAmqpUrl, uniqueTestName } from './rabbitmq';
import { createRecordingLogger, type RecordingLogger } from './recording-logger';

/** The two real stacks a service's integration tests run on. */
export type TestStack = 'postgres+rabbitmq' | 'pglite+in-process';
export const testStacks: readonly TestStack[] = ['postgres+rabbitmq', 'pglite+in-process'];

/** A Mailer that keeps what it is asked to send, for asserting on the mail a consumer produced. */
export interface RecordingMailer extends Mailer {
  readonly sent: MailMessage[];
}

export function createRecordingMailer(): RecordingMailer {
  const sent: MailMessage[] = [];
  return {
    kind: 'folder',
    sent,
    async send(message) {
      sent.push(message);
    },
    async close() {},
  };
}

export interface TestDependencies {
  deps: ServiceDependencies & { logger: RecordingLogger; mailer: RecordingMailer };
  dispose(): Promise<void>;
}

/**
 * Real dependencies for one test file: a fresh PostgreSQL database and a RabbitMQ exchange of its own,
 * or an in-memory PGlite and the in-process bus. `consumers` are the queue names the test's services
 * declare, deleted at the end.
 */
export async function createTestDependencies(
  stack: TestStack,
  consumers: readonly string[] = [],
): Promise<TestDependencies> {
  const logger = createRecordingLogger();
  const filesDir = await mkdtemp(path.join(tmpdir(), 'whistle-objects-'));
  const objects = new DiskObjectStore(filesDir);
  const mailer = createRecordingMailer();
  if (stack === 'postgres+rabbitmq') {
    const database = await createTestDatabase();
    const exchange = uniqueTestName('whistle.test');
    const db = await openDatabase({ databaseUrl: database.url });
    const bus = await openEventBus({ amqpUrl: testAmqpUrl(), exchange, logger });
    return {
      deps: { logger, db, bus, objects, mailer },
      async dispose() {
        await bus.close();
        await db.close();
        await database.drop();
        await deleteRabbitTopology({ exchanges: [exchange], consumers });
        await rm(filesDir, { recursive: true, force: true });
      },
    };
  }
  const db = await openDatabase({});
  const bus = await openEventBus({ logger });
  return {
    deps: { logger, db, bus, objects, mailer },
    async dispose() {
      await bus.close();
      await db.close();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}
