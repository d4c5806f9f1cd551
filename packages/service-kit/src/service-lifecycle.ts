import type { EventEnvelope } from '@whistle/contracts';
import type { Database, MigrationStream } from './database/database';
import { migrate } from './database/migrate';
import { createPeriodicJob, type PeriodicJob, type PeriodicJobWords } from './jobs/periodic-job';
import type { Logger } from './logging/logger';
import type { EventBus } from './messaging/event-bus';
import { createOutbox, messagingMigrations } from './messaging/outbox';
import { startOutboxRelay, type OutboxRelay } from './messaging/outbox-relay';
import { subscribeIdempotently } from './messaging/idempotent-consumer';
import { createWriteWithEvents, type WriteWithEvents } from './messaging/statement-with-events';
import { createUnitOfWork, type Transaction, type UnitOfWork } from './messaging/unit-of-work';

/**
 * What a service consumes. Spread `eventHandlers({...})` into it (handlers keyed by `name@version`, each typed by the
 * catalogue; a version without a handler is refused, so dead-lettered); a bare `handle` is for a consumer that
 * takes every event as data whatever its version (the audit trail).
 */
export interface ServiceSubscription {
  /** Durable consumer name: its queue, and its key in the inbox. Defaults to the service name. */
  consumer?: string;
  events: readonly string[];
  /** Why an event cannot be handled here; it is dead-lettered with that reason, before any transaction. */
  refusal?(event: EventEnvelope): string | undefined;
  /**
   * Runs once per event id, in one transaction with the inbox row; the events it adds go to the outbox in that
   * transaction (a consumer that announces what it did announces it exactly once).
   */
  handle(tx: Transaction, event: EventEnvelope): Promise<void>;
}

/** A service's schema and its migrations: what its start applies, and its migrate command (cli/migrate-command). */
export interface ServiceSchema {
  /** The service's name in logs. */
  name: string;
  /** The schema the service owns; its outbox and inbox live there too. */
  schema: string;
  /** Migrated in this order, after the kit's messaging tables (messagingMigrations): the service's own stream last. */
  migrations: readonly MigrationStream[];
}

/** Every stream of a service's schema in the order they apply: the kit's messaging tables first. */
export const schemaStreams = ({
  schema,
  migrations,
}: Pick<ServiceSchema, 'schema' | 'migrations'>): MigrationStream[] => [messagingMigrations(schema), ...migrations];

export interface ServiceLifecycleOptions extends ServiceSchema {
  /** The two ports every service has. */
  deps: { logger: Logger; db: Database; bus: EventBus };
  subscriptions?: readonly ServiceSubscription[];
}

export interface ServiceLifecycle {
  /** Every write that announces an event runs here: one transaction with the outbox, published after COMMIT. */
  readonly unitOfWork: UnitOfWork;
  /** A write and its events as one statement, committed on its own (a hot write: one round trip). */
  readonly writeWithEvents: WriteWithEvents;
  /**
   * A job the service runs on an interval in every replica (see createPeriodicJob): started once the schema is
   * migrated and the consumers subscribed, stopped (a run in progress awaited) before the relay stops, so the
   * events a last run commits still leave. `runOnce()` runs it now (tests, operations).
   */
  periodic<T>(job: PeriodicJobOptions<T>): PeriodicJob<T>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface PeriodicJobOptions<T> {
  /** Names the job in the logs (`component`). */
  name: string;
  run: () => Promise<T>;
  intervalMs: number;
  words: PeriodicJobWords<T>;
}

/**
 * What every service does the same way: migrate its schema (with the outbox and inbox tables), relay
 * its outbox to the bus, and consume events idempotently. The service keeps only its own domain.
 */
export function createServiceLifecycle({
  name,
  schema,
  migrations,
  deps,
  subscriptions = [],
}: ServiceLifecycleOptions): ServiceLifecycle {
  const logger = deps.logger.child({ service: name });
  let relay: OutboxRelay | undefined;
  const writing = { db: deps.db, outbox: createOutbox(schema), afterCommit: () => relay?.notify() };
  const jobs: PeriodicJob<unknown>[] = [];
  let started = false;
  return {
    unitOfWork: createUnitOfWork(writing),
    writeWithEvents: createWriteWithEvents(writing),
    periodic(options) {
      const job = createPeriodicJob({ ...options, logger: logger.child({ component: options.name }) });
      jobs.push(job as PeriodicJob<unknown>);
      if (started) job.start();
      return job;
    },
    async start() {
      await migrate(deps.db, schema, ...schemaStreams({ schema, migrations }));
      relay = startOutboxRelay({ db: deps.db, schema, bus: deps.bus, logger });
      for (const subscription of subscriptions) {
        await subscribeIdempotently({
          db: deps.db,
          schema,
          bus: deps.bus,
          consumer: subscription.consumer ?? name,
          events: subscription.events,
          refusal: (event) => subscription.refusal?.(event),
          handle: async (tx, event) => {
            let added = false;
            await subscription.handle(
              {
                query: (sql, params, options) => tx.query(sql, params, options),
                addEvent: (newEvent) => ((added = true), writing.outbox.add(tx, newEvent)),
              },
              event,
            );
            // Published once the consumer's transaction commits: the relay looks again now and on its own rounds.
            if (added) queueMicrotask(() => relay?.notify());
          },
          logger,
        });
      }
      // Events written before a restart (or while the bus was down) leave now.
      relay.notify();
      started = true;
      for (const job of jobs) job.start();
    },
    async stop() {
      started = false;
      // Before the relay stops: a run in progress commits its events, which the relay may still send.
      await Promise.all(jobs.map((job) => job.stop()));
      await relay?.stop();
      relay = undefined;
    },
  };
}
