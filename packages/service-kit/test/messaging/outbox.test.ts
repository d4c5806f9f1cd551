/* eslint-disable max-lines -- outbox, relay and inbox are one delivery guarantee, tested together on both platforms. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { asTenant, currentTenant, migrate, openDatabase, type Database } from '../../src/database';
import {
  createOutbox,
  InProcessEventBus,
  messagingMigrations,
  RabbitMqEventBus,
  consumerQueues,
  startOutboxRelay,
  subscribeIdempotently,
  UnprocessableEventError,
  type EventBus,
  type OutboxRelay,
} from '../../src/messaging';
import {
  createRecordingLogger,
  createTestDatabase,
  deleteRabbitTopology,
  testAmqpUrl,
  uniqueTestName,
  waitFor,
  type RecordingLogger,
} from '../../src/testing';
import { drainQueue } from './support';

const SCHEMA = 'svc';
const run = uniqueTestName('outbox');

interface Platform {
  db: Database;
  bus: EventBus;
  /** Ids dead-lettered for `consumer` so far. */
  deadLetterIds(consumer: string): Promise<string[]>;
  dispose(): Promise<void>;
}

/** The two ways the platform runs: standalone (PGlite + in-process bus) and cluster (PostgreSQL + RabbitMQ). */
const platforms: { name: string; open: (logger: RecordingLogger) => Promise<Platform> }[] = [
  {
    name: 'PGlite with the in-process bus',
    open: async (logger) => {
      const db = await openDatabase({});
      const bus = new InProcessEventBus({ logger, maxAttempts: 3, retryDelayMs: 5 });
      return {
        db,
        bus,
        deadLetterIds: async (consumer) =>
          bus.deadLetters.filter((d) => d.consumer === consumer).map((d) => d.event.id),
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
      const bus = await RabbitMqEventBus.connect({
        url: testAmqpUrl(),
        exchange,
        logger,
        maxAttempts: 3,
        retryDelayMs: 50,
      });
      const consumers: string[] = [];
      const subscribe = bus.subscribe.bind(bus);
      bus.subscribe = (subscription) => {
        consumers.push(subscription.consumer);
        return subscribe(subscription);
      };
      const dead = new Map<string, string[]>();
      return {
        db,
        bus,
        deadLetterIds: async (consumer) => {
          const ids = dead.get(consumer) ?? [];
          ids.push(
            ...(await drainQueue(consumerQueues(exchange, consumer).dlq)).map(
              (body) => (JSON.parse(body) as EventEnvelope).id,
            ),
          );
          dead.set(consumer, ids);
          return ids;
        },
        dispose: async () => {
          await bus.close();
          await db.close();
          await testDb.drop();
          await deleteRabbitTopology({ exchanges: [exchange], consumers });
        },
      };
    },
  },
];

/** Wraps a bus so a test can play a broker outage, optionally after a number of successful publishes. */
class SwitchableBus implements EventBus {
  readonly kind: EventBus['kind'];
  private allowed = Infinity;
  constructor(private readonly inner: EventBus) {
    this.kind = inner.kind;
  }
  down({ after = 0 } = {}): void {
    this.allowed = after;
  }
  up(): void {
    this.allowed = Infinity;
  }
  async publish(event: EventEnvelope): Promise<void> {
    if (this.allowed <= 0) throw new Error('broker unreachable');
    this.allowed -= 1;
    await this.inner.publish(event);
  }
  subscribe: EventBus['subscribe'] = (subscription) => this.inner.subscribe(subscription);
  async close(): Promise<void> {}
}

const outbox = createOutbox(SCHEMA);
const userCreated = () => ({
  name: 'user.created',
  company_id: randomUUID(),
  payload: { user_id: randomUUID(), email: 'someone@example.com', full_name: 'Some One', roles: ['ADMIN'] },
});

describe.each(platforms)('outbox and idempotent consumer on $name', ({ name, open }) => {
  let logger: RecordingLogger;
  let platform: Platform;
  let db: Database;
  let bus: SwitchableBus;
  let relay: OutboxRelay;
  /** Every user.created event id one plain subscriber received, in order. */
  const received: string[] = [];
  const envelopes = new Map<string, EventEnvelope>();
  /** The tenant scope (asTenant) that subscriber ran in, per event id. */
  const tenantAtDelivery = new Map<string, string>();

  beforeAll(async () => {
    logger = createRecordingLogger();
    platform = await open(logger);
    db = platform.db;
    bus = new SwitchableBus(platform.bus);
    await migrate(db, SCHEMA, messagingMigrations(SCHEMA), {
      name: 'watcher',
      migrations: [
        {
          id: '001_projection',
          sql: `CREATE TABLE ${SCHEMA}.projection (event_id uuid NOT NULL, user_id uuid NOT NULL)`,
        },
      ],
    });
    await bus.subscribe({
      consumer: `${run}.watcher`,
      events: ['user.created'],
      handle: async (event) => {
        received.push(event.id);
        envelopes.set(event.id, event);
        tenantAtDelivery.set(event.id, currentTenant() ?? 'none');
      },
    });
    // A long interval: these tests drive the relay with flush()/notify() unless they say otherwise.
    relay = startOutboxRelay({ db, schema: SCHEMA, bus, logger, intervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await relay?.stop();
    await platform?.dispose();
  });

  const unpublishedCount = async () =>
    (await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${SCHEMA}.outbox WHERE published_at IS NULL`)).rows[0]!.n;

  it('when an event does not match the catalogue, then add refuses it and writes nothing', async () => {
    await expect(
      db.transaction((tx) => outbox.add(tx, { ...userCreated(), payload: { user_id: 'nope' } })),
    ).rejects.toThrow(/user_id|email|roles/);
    await expect(db.transaction((tx) => outbox.add(tx, { ...userCreated(), name: 'user.vanished' }))).rejects.toThrow(
      /Unknown event user\.vanished v1/,
    );
    expect((await db.query(`SELECT count(*) AS n FROM ${SCHEMA}.outbox`)).rows).toEqual([{ n: '0' }]);
  });

  it('when the business transaction commits, then its event is published; when it rolls back, then never', async () => {
    const committed = await db.transaction((tx) => outbox.add(tx, userCreated()));
    let rolledBack: EventEnvelope | undefined;
    await expect(
      db.transaction(async (tx) => {
        rolledBack = await outbox.add(tx, userCreated());
        throw new Error('business rule broken');
      }),
    ).rejects.toThrow('business rule broken');

    expect(await relay.flush()).toBe(1);
    await waitFor(() => received.includes(committed.id), { what: 'the committed event' });
    expect(await relay.flush()).toBe(0);
    expect(received).not.toContain(rolledBack!.id);
    expect(await unpublishedCount()).toBe('0');
  });

  it('when an event names who caused it, then the actor travels with it; without one, none is invented', async () => {
    const actor = { type: 'STAFF' as const, user_id: randomUUID() };
    const [byStaff, bySystem] = await db.transaction(async (tx) => [
      await outbox.add(tx, { ...userCreated(), actor }),
      await outbox.add(tx, userCreated()),
    ]);
    await relay.flush();
    await waitFor(() => envelopes.has(bySystem.id), { what: 'both events' });
    expect(envelopes.get(byStaff.id)?.actor).toEqual(actor);
    expect(envelopes.get(bySystem.id)).not.toHaveProperty('actor');
  });

  it('when several events wait, then they are published in the order they were written', async () => {
    const written = await db.transaction(async (tx) => [
      await outbox.add(tx, userCreated()),
      await outbox.add(tx, userCreated()),
    ]);
    written.push(await db.transaction((tx) => outbox.add(tx, userCreated())));
    const start = received.length;
    expect(await relay.flush()).toBe(3);
    await waitFor(() => received.length === start + 3, { what: 'three deliveries' });
    expect(received.slice(start)).toEqual(written.map((event) => event.id));
  });

  it('when the broker is down, then the events stay in the outbox and are published once it is back', async () => {
    const first = await db.transaction((tx) => outbox.add(tx, userCreated()));
    const second = await db.transaction((tx) => outbox.add(tx, userCreated()));
    bus.down({ after: 1 });
    await expect(relay.flush()).rejects.toThrow(/broker unreachable/);
    expect(await unpublishedCount()).toBe('1');
    await expect(relay.flush()).rejects.toThrow(/broker unreachable/);

    bus.up();
    expect(await relay.flush()).toBe(1);
    await waitFor(() => received.includes(first.id) && received.includes(second.id), { what: 'both events' });
    expect(received.filter((id) => id === first.id || id === second.id)).toHaveLength(2);
  });

  it('when the database is lost between a publish and its mark, then the event goes out again after the claim lapses', async () => {
    const event = await db.transaction((tx) => outbox.add(tx, userCreated()));
    // A relay whose database answers the claim and then fails (a crash or an outage after the broker confirmed).
    const failingMark: Database = Object.create(db, {
      query: {
        value: (sql: string, params?: readonly unknown[], options?: { name?: string }) =>
          /published_at = CASE/.test(sql)
            ? Promise.reject(new Error('connection lost'))
            : db.query(sql, params, options),
      },
    });
    const published: string[] = [];
    const recorder: EventBus = {
      kind: bus.kind,
      publish: async (e) => void published.push(e.id),
      subscribe: async () => undefined,
      close: async () => undefined,
    };
    // It flushes as it starts: the broker confirms, the mark fails.
    const crashing = startOutboxRelay({
      db: failingMark,
      schema: SCHEMA,
      bus: recorder,
      logger,
      intervalMs: 3_600_000,
    });
    await waitFor(() => published.includes(event.id), { what: 'the first publish' });
    await crashing.stop();
    expect(published).toEqual([event.id]);
    expect(await unpublishedCount()).toBe('1');
    // Claimed, not marked: no relay takes it before the claim lapses...
    expect(await relay.flush()).toBe(0);
    await db.query(`UPDATE ${SCHEMA}.outbox SET claimed_until = now() - interval '1 second' WHERE id = $1`, [event.id]);
    // ...then it is published again (at least once; consumers' inboxes drop the copy) and marked.
    expect(await relay.flush()).toBe(1);
    await waitFor(() => received.includes(event.id), { what: 'the event, published again' });
    expect(await unpublishedCount()).toBe('0');
  });

  it('when the broker stays down through many writes, then the relay logs the outage once and its end once', async () => {
    const before = logger.entries.length;
    const relayLines = () =>
      logger.entries.slice(before).filter((entry) => entry.level !== 'debug' && /^Outbox relay/.test(entry.message));
    bus.down();
    for (let i = 0; i < 10; i += 1) {
      await db.transaction((tx) => outbox.add(tx, userCreated()));
      relay.notify();
      await relay.flush().catch(() => undefined);
    }
    expect(relayLines().map((entry) => entry.level)).toEqual(['warn']);
    bus.up();
    relay.notify();
    await waitFor(async () => (await unpublishedCount()) === '0', { what: 'the backlog published' });
    await waitFor(() => relayLines().length === 2, { what: 'the recovery line' });
    expect(relayLines().map((entry) => [entry.level, entry.message])).toEqual([
      ['warn', 'Outbox relay cannot publish; the events stay in the outbox until it can'],
      ['info', 'Outbox relay publishes again'],
    ]);
  });

  it('when notified after a commit, then the relay publishes without waiting for its interval', async () => {
    const event = await db.transaction((tx) => outbox.add(tx, userCreated()));
    relay.notify();
    await waitFor(() => received.includes(event.id), { what: 'the notified event' });
  });

  it('when a tenant’s request notifies the relay, then the round and the consumers it reaches run outside that tenant’s scope', async () => {
    // The round reads every company's events: in the scope it would run as the tenant role, which this schema
    // grants nothing, and the in-process bus would hand each event to its consumers in that company's scope.
    const event = await db.transaction((tx) => outbox.add(tx, userCreated()));
    asTenant(randomUUID(), () => relay.notify());
    await waitFor(() => received.includes(event.id), { what: 'the event notified in a tenant scope' });
    expect(tenantAtDelivery.get(event.id)).toBe('none');
  });

  it('when left alone, then the relay publishes on its interval', async () => {
    const ticking = startOutboxRelay({ db, schema: SCHEMA, bus, logger, intervalMs: 20 });
    try {
      const event = await db.transaction((tx) => outbox.add(tx, userCreated()));
      await waitFor(() => received.includes(event.id), { what: 'the polled event' });
    } finally {
      await ticking.stop();
    }
  });

  describe('subscribeIdempotently', () => {
    const projectionRows = async (eventId: string) =>
      (await db.query(`SELECT user_id FROM ${SCHEMA}.projection WHERE event_id = $1`, [eventId])).rowCount;

    it('when the same event is delivered twice, then the handler runs once and both deliveries are acknowledged', async () => {
      const consumer = `${run}.projector`;
      let calls = 0;
      await subscribeIdempotently({
        db,
        schema: SCHEMA,
        bus,
        consumer,
        events: ['user.created'],
        logger,
        handle: async (tx, event) => {
          calls += 1;
          await tx.query(`INSERT INTO ${SCHEMA}.projection (event_id, user_id) VALUES ($1, $2)`, [
            event.id,
            event.payload.user_id,
          ]);
        },
      });
      const event = await db.transaction((tx) => outbox.add(tx, userCreated()));
      await relay.flush();
      await bus.publish(event); // The duplicate a relay crash between confirm and mark would produce.

      await waitFor(
        () =>
          logger.entries.some((e) => e.message === 'Event already processed; skipped' && e.fields.eventId === event.id),
        {
          what: 'the duplicate to be skipped',
        },
      );
      expect(calls).toBe(1);
      expect(await projectionRows(event.id)).toBe(1);
      expect((await db.query(`SELECT consumer FROM ${SCHEMA}.inbox WHERE event_id = $1`, [event.id])).rows).toEqual([
        { consumer },
      ]);
      expect(await platform.deadLetterIds(consumer)).toEqual([]);
    });

    it('when the handler fails, then its writes and the inbox row roll back together and the retry processes it once', async () => {
      const consumer = `${run}.fragile`;
      let calls = 0;
      await subscribeIdempotently({
        db,
        schema: SCHEMA,
        bus,
        consumer,
        events: ['user.created'],
        logger,
        handle: async (tx, event) => {
          calls += 1;
          await tx.query(`INSERT INTO ${SCHEMA}.projection (event_id, user_id) VALUES ($1, $2)`, [
            event.id,
            event.payload.user_id,
          ]);
          if (calls === 1) throw new Error('downstream hiccup');
        },
      });
      const event = await db.transaction((tx) => outbox.add(tx, userCreated()));
      await relay.flush();
      // Processed by this consumer and by the projector of the previous test, still subscribed.
      await waitFor(
        async () => (await db.query(`SELECT 1 FROM ${SCHEMA}.inbox WHERE event_id = $1`, [event.id])).rowCount === 2,
        {
          what: 'the event to be processed by both consumers',
        },
      );
      expect(
        (await db.query(`SELECT 1 FROM ${SCHEMA}.inbox WHERE consumer = $1 AND event_id = $2`, [consumer, event.id]))
          .rowCount,
      ).toBe(1);
      expect(calls).toBe(2);
      // The projector of the previous test also writes one row per user.created: count only this consumer's effect.
      expect(await projectionRows(event.id)).toBe(2);
    });

    it('when many events arrive together and the handler refuses one, then that one alone is dead-lettered and every other is handled, its inbox row committed', async () => {
      const consumer = `${run}.batched`;
      let refused: string | undefined;
      await subscribeIdempotently({
        db,
        schema: SCHEMA,
        bus,
        consumer,
        events: ['user.created'],
        logger,
        handle: async (tx, event) => {
          await tx.query(`INSERT INTO ${SCHEMA}.projection (event_id, user_id) VALUES ($1, $2)`, [
            event.id,
            event.payload.user_id,
          ]);
          if (event.id === refused) throw new UnprocessableEventError('this one cannot be handled');
        },
      });
      const events = await db.transaction(async (tx) => {
        const written: EventEnvelope[] = [];
        for (let i = 0; i < 24; i += 1) written.push(await outbox.add(tx, userCreated()));
        return written;
      });
      refused = events[9]!.id;
      await relay.flush();
      const inboxOf = async () =>
        (
          await db.query<{ event_id: string }>(`SELECT event_id FROM ${SCHEMA}.inbox WHERE consumer = $1`, [consumer])
        ).rows.map((row) => row.event_id);
      await waitFor(
        async () => (await platform.deadLetterIds(consumer)).includes(refused!) && (await inboxOf()).length === 23,
        { what: 'the refused event dead-lettered and the others handled' },
      );
      expect((await inboxOf()).sort()).toEqual(
        events
          .map((event) => event.id)
          .filter((id) => id !== refused)
          .sort(),
      );
      expect(await platform.deadLetterIds(consumer)).toEqual([refused]);
    });

    it('when the payload does not match the catalogue, then the event is dead-lettered without running the handler', async () => {
      const consumer = `${run}.strict`;
      let calls = 0;
      await subscribeIdempotently({
        db,
        schema: SCHEMA,
        bus,
        consumer,
        events: ['user.created'],
        logger,
        handle: async () => void (calls += 1),
      });
      const forged: EventEnvelope = {
        id: randomUUID(),
        name: 'user.created',
        version: 1,
        company_id: null,
        occurred_at: new Date().toISOString(),
        payload: { user_id: 'x' },
      };
      await bus.publish(forged);
      await waitFor(async () => (await platform.deadLetterIds(consumer)).includes(forged.id), {
        what: 'the dead letter',
      });
      expect(calls).toBe(0);
    });
  });

  if (name.startsWith('PostgreSQL')) {
    it('when the relay publishes, then it holds no transaction open while it waits for the broker', async () => {
      await db.transaction((tx) => outbox.add(tx, userCreated()));
      const openTransactions: number[] = [];
      const watcher: EventBus = {
        kind: 'rabbitmq',
        publish: async () => {
          const { rows } = await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
          );
          openTransactions.push(rows[0]!.n);
        },
        subscribe: async () => undefined,
        close: async () => undefined,
      };
      const relay = startOutboxRelay({ db, schema: SCHEMA, bus: watcher, logger, intervalMs: 3_600_000 });
      try {
        await relay.flush();
        expect(openTransactions.length).toBeGreaterThan(0);
        expect(openTransactions.every((n) => n === 0)).toBe(true);
      } finally {
        await relay.stop();
      }
    });

    it('when a relay dies after claiming a batch, then another publishes it once the claim has lapsed', async () => {
      const event = await db.transaction((tx) => outbox.add(tx, userCreated()));
      // What a relay that crashed mid-round leaves behind: its claim, and no mark.
      await db.query(`UPDATE ${SCHEMA}.outbox SET claimed_until = now() + interval '1 hour' WHERE id = $1`, [event.id]);
      const published: string[] = [];
      const recorder: EventBus = {
        kind: 'rabbitmq',
        publish: async (e) => void published.push(e.id),
        subscribe: async () => undefined,
        close: async () => undefined,
      };
      const relay = startOutboxRelay({ db, schema: SCHEMA, bus: recorder, logger, intervalMs: 3_600_000 });
      try {
        await relay.flush();
        expect(published).not.toContain(event.id);
        await db.query(`UPDATE ${SCHEMA}.outbox SET claimed_until = now() - interval '1 second' WHERE id = $1`, [
          event.id,
        ]);
        await relay.flush();
        expect(published.filter((id) => id === event.id)).toHaveLength(1);
      } finally {
        await relay.stop();
      }
    });

    it('when two relays flush at once, then every event is published exactly once', async () => {
      const events = await db.transaction(async (tx) =>
        Promise.all(Array.from({ length: 40 }, () => outbox.add(tx, userCreated()))),
      );
      const published: string[] = [];
      const recorder: EventBus = {
        kind: 'rabbitmq',
        publish: async (event) => {
          published.push(event.id);
          await new Promise((resolve) => setTimeout(resolve, 2));
        },
        subscribe: async () => undefined,
        close: async () => undefined,
      };
      const relays = [0, 1].map(() =>
        startOutboxRelay({ db, schema: SCHEMA, bus: recorder, logger, intervalMs: 3_600_000, batchSize: 5 }),
      );
      try {
        // Each relay also flushes once on start; flush() resolves after that and its own round.
        await Promise.all(relays.map((r) => r.flush()));
        expect([...published].sort()).toEqual(events.map((e) => e.id).sort());
      } finally {
        await Promise.all(relays.map((r) => r.stop()));
      }
    });
  }
});
