import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { openDatabase, type Database } from '../../src/database';
import {
  eventHandlers,
  InProcessEventBus,
  listDeadLetters,
  ofCompany,
  RabbitMqEventBus,
  type EventBus,
  type VersionedEvent,
} from '../../src/messaging';
import { createServiceLifecycle, type ServiceLifecycle } from '../../src/service-lifecycle';
import {
  createRecordingLogger,
  createTestDatabase,
  deleteRabbitTopology,
  testAmqpUrl,
  uniqueTestName,
  waitFor,
  type RecordingLogger,
} from '../../src/testing';

const run = uniqueTestName('handlers');
const CONSUMER = `${run}.versioned`;

interface Platform {
  db: Database;
  bus: EventBus;
  /** The consumer's dead letters so far: the event id and why it was dead-lettered. */
  deadLetters(): Promise<{ eventId: string | null; error: string | null }[]>;
  dispose(): Promise<void>;
}

/** Both stacks: what dead-letters is each bus's own path (its in-memory list, the consumer's DLQ). */
const platforms: { name: string; open: (logger: RecordingLogger) => Promise<Platform> }[] = [
  {
    name: 'PGlite with the in-process bus',
    open: async (logger) => {
      const db = await openDatabase({});
      const bus = new InProcessEventBus({ logger, maxAttempts: 3, retryDelayMs: 5 });
      return {
        db,
        bus,
        deadLetters: async () =>
          bus.deadLetters
            .filter((letter) => letter.consumer === CONSUMER)
            .map((letter) => ({ eventId: letter.event.id, error: letter.error })),
        dispose: async () => {
          await bus.close();
          await db.close();
        },
      };
    },
  },
  {
    name: 'PostgreSQL with RabbitMQ',
    open: async (logger) => {
      const testDb = await createTestDatabase();
      const db = await openDatabase({ databaseUrl: testDb.url });
      const exchange = `${run}.events`;
      const bus = await RabbitMqEventBus.connect({ url: testAmqpUrl(), exchange, logger, maxAttempts: 3 });
      return {
        db,
        bus,
        deadLetters: async () =>
          (await listDeadLetters({ amqpUrl: testAmqpUrl(), exchange, consumer: CONSUMER })).map(
            ({ eventId, error }) => ({ eventId, error }),
          ),
        dispose: async () => {
          await bus.close();
          await db.close();
          await testDb.drop();
          await deleteRabbitTopology({ exchanges: [exchange], consumers: [CONSUMER] });
        },
      };
    },
  },
];

const mfaEnabled = (version: number, companyId: string | null = randomUUID()): EventEnvelope => ({
  id: randomUUID(),
  name: 'user.mfa_enabled',
  version,
  company_id: companyId,
  occurred_at: new Date().toISOString(),
  payload: { user_id: randomUUID() },
});

describe.each(platforms)('versioned event handlers on $name', ({ open }) => {
  let platform: Platform;
  let lifecycle: ServiceLifecycle;
  const schema = `versioned_${randomUUID().slice(0, 8)}`;
  const handled: VersionedEvent<'user.mfa_enabled@1'>[] = [];

  beforeAll(async () => {
    const logger = createRecordingLogger();
    platform = await open(logger);
    lifecycle = createServiceLifecycle({
      name: 'versioned',
      schema,
      migrations: [],
      deps: { logger, db: platform.db, bus: platform.bus },
      subscriptions: [
        {
          consumer: CONSUMER,
          // A consumer written for v1 only.
          ...eventHandlers({
            'user.mfa_enabled@1': ofCompany(async (_tx, event) => void handled.push(event)),
          }),
        },
      ],
    });
    await lifecycle.start();
  });
  afterAll(async () => {
    await lifecycle?.stop();
    await platform?.dispose();
  });

  const inboxHas = async (eventId: string) =>
    (await platform.db.query(`select 1 from ${schema}.inbox where event_id = $1`, [eventId])).rowCount === 1;

  it('when an event of the version a handler is written for arrives, then that handler gets it, its payload typed', async () => {
    const event = mfaEnabled(1);
    await platform.bus.publish(event);
    await waitFor(() => inboxHas(event.id), { what: 'the event handled' });
    const received = handled.find((one) => one.id === event.id)!;
    // Typed by the catalogue's v1 schema: `user_id` is a string, no cast.
    const userId: string = received.payload.user_id;
    // @ts-expect-error v1 of user.mfa_enabled carries no address.
    expect(received.payload.email).toBeUndefined();
    expect(userId).toBe(event.payload.user_id);
    expect(received.version).toBe(1);
  });

  it('when a v2 event reaches a consumer that handles v1 only, then it is dead-lettered with the reason, unhandled', async () => {
    const event = mfaEnabled(2);
    await platform.bus.publish(event);
    await waitFor(async () => (await platform.deadLetters()).some((letter) => letter.eventId === event.id), {
      what: 'the v2 event dead-lettered',
    });
    expect((await platform.deadLetters()).find((letter) => letter.eventId === event.id)?.error).toBe(
      'No handler for user.mfa_enabled v2: this consumer handles v1 only',
    );
    expect(handled.map((one) => one.id)).not.toContain(event.id);
    expect(await inboxHas(event.id)).toBe(false);
  });

  it('when an event of a company has none, then it is dead-lettered as such', async () => {
    const event = mfaEnabled(1, null);
    await platform.bus.publish(event);
    await waitFor(async () => (await platform.deadLetters()).some((letter) => letter.eventId === event.id), {
      what: 'the event without a company dead-lettered',
    });
    expect((await platform.deadLetters()).find((letter) => letter.eventId === event.id)?.error).toBe(
      'user.mfa_enabled without a company',
    );
  });
});

describe('eventHandlers', () => {
  let calls = 0;
  const handlers = eventHandlers<null>({
    'user.created@1': async () => void (calls += 1),
    'user.mfa_enabled@1': async () => void (calls += 1),
  });
  beforeEach(() => (calls = 0));

  it('when asked what to subscribe to, then it names each event handled, once', () => {
    expect(handlers.events).toEqual(['user.created', 'user.mfa_enabled']);
  });

  it('when an event of a name it has no handler for is given, then it is unprocessable', async () => {
    await expect(handlers.handle(null, { ...mfaEnabled(1), name: 'user.deleted' })).rejects.toMatchObject({
      name: 'UnprocessableEventError',
      message: 'No handler for user.deleted',
    });
  });

  it('when a payload does not fit the schema of its version, then it is unprocessable and the handler never runs', async () => {
    await expect(handlers.handle(null, { ...mfaEnabled(1), payload: { user_id: 'not a uuid' } })).rejects.toMatchObject(
      { name: 'UnprocessableEventError', message: expect.stringContaining('does not match the catalogue') },
    );
    expect(calls).toBe(0);
  });
});
