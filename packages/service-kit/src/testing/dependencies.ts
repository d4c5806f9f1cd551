import type { Database } from '../database/database';
import { openDatabase } from '../database/open-database';
import type { EventBus } from '../messaging/event-bus';
import { openEventBus } from '../messaging/open-event-bus';
import { createTestDatabase } from './postgres';
import { deleteRabbitTopology, testAmqpUrl, uniqueTestName } from './rabbitmq';
import { createRecordingLogger, type RecordingLogger } from './recording-logger';

/** The two real stacks a service's integration tests run on. */
export type TestStack = 'postgres+rabbitmq' | 'pglite+in-process';
export const testStacks: readonly TestStack[] = ['postgres+rabbitmq', 'pglite+in-process'];

export interface TestDependencies {
  /** The ports every service has, and a logger that keeps what it is given. A service that needs more adds them. */
  deps: { logger: RecordingLogger; db: Database; bus: EventBus };
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
  if (stack === 'postgres+rabbitmq') {
    const database = await createTestDatabase();
    const exchange = uniqueTestName('whistle.test');
    const db = await openDatabase({ databaseUrl: database.url });
    const bus = await openEventBus({ amqpUrl: testAmqpUrl(), exchange, logger });
    return {
      deps: { logger, db, bus },
      async dispose() {
        await bus.close();
        await db.close();
        await database.drop();
        await deleteRabbitTopology({ exchanges: [exchange], consumers });
      },
    };
  }
  const db = await openDatabase({});
  const bus = await openEventBus({ logger });
  return {
    deps: { logger, db, bus },
    async dispose() {
      await bus.close();
      await db.close();
    },
  };
}
