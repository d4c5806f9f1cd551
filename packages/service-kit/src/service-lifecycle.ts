import type { EventEnvelope } from '@whistle/contracts';
import type { Migration, Queryable } from './database/database';
import { migrate } from './database/migrate';
import { createOutbox, messagingMigrations, type Outbox } from './messaging/outbox';
import { startOutboxRelay, type OutboxRelay } from './messaging/outbox-relay';
import { subscribeIdempotently } from './messaging/idempotent-consumer';
import type { ServiceDependencies } from './service';

export interface ServiceSubscription {
  /** Durable consumer name: its queue, and its key in the inbox. Defaults to the service name. */
  consumer?: string;
  events: readonly string[];
  /** Runs once per event id, in one transaction with the inbox row. */
  handle(tx: Queryable, event: EventEnvelope): Promise<void>;
}

export interface ServiceLifecycleOptions {
  name: string;
  /** The schema the service owns; its outbox and inbox live there too. */
  schema: string;
  migrations: readonly Migration[];
  deps: ServiceDependencies;
  subscriptions?: readonly ServiceSubscription[];
}

export interface ServiceLifecycle {
  /** Write events here inside the business transaction. */
  readonly outbox: Outbox;
  /** Call after a commit that added events: publishes now rather than at the next relay tick. */
  publishPending(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
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
  return {
    outbox: createOutbox(schema),
    publishPending: () => relay?.notify(),
    async start() {
      await migrate(deps.db, schema, [...messagingMigrations(schema), ...migrations]);
      relay = startOutboxRelay({ db: deps.db, schema, bus: deps.bus, logger });
      for (const subscription of subscriptions) {
        await subscribeIdempotently({
          db: deps.db,
          schema,
          bus: deps.bus,
          consumer: subscription.consumer ?? name,
          events: subscription.events,
          handle: subscription.handle,
          logger,
        });
      }
      // Events written before a restart (or while the bus was down) leave now.
      relay.notify();
    },
    async stop() {
      await relay?.stop();
      relay = undefined;
    },
  };
}
