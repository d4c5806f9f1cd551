import { parseEventPayload, type EventEnvelope } from '@whistle/contracts';
import type { Database, Queryable } from '../database/database';
import { assertSchemaName } from '../database/migrate';
import type { Logger } from '../logging/logger';
import type { EventBus } from './event-bus';
import { UnprocessableEventError } from './unprocessable-event-error';

export interface IdempotentSubscription {
  db: Database;
  /** The consuming service's schema, holding its `inbox` (see messagingMigrations). */
  schema: string;
  bus: EventBus;
  consumer: string;
  events: readonly string[];
  /** Runs in the same transaction as the inbox row: write the read model through `tx` only. */
  handle(tx: Queryable, event: EventEnvelope): Promise<void>;
  logger: Logger;
}

/**
 * Subscribes a handler that runs at most once per event id and consumer: the inbox row and the
 * handler's writes commit together (or not at all), and the bus acknowledges only after that commit.
 * A redelivered event finds its inbox row and is acknowledged without running the handler. On
 * PostgreSQL a concurrent duplicate waits on the first one's uncommitted inbox row, then skips.
 * The payload is checked against the event catalogue first; one that does not fit is dead-lettered
 * at once, since retrying cannot fix it.
 */
export function subscribeIdempotently(options: IdempotentSubscription): Promise<void> {
  const { db, schema, bus, consumer, events, handle, logger } = options;
  assertSchemaName(schema);
  return bus.subscribe({
    consumer,
    events,
    async handle(event) {
      let payload: Record<string, unknown>;
      try {
        payload = parseEventPayload(event.name, event.version, event.payload);
      } catch (error) {
        throw new UnprocessableEventError(
          `Event ${event.name} v${event.version} does not match the catalogue: ${(error as Error).message}`,
          { cause: error },
        );
      }
      const processed = await db.transaction(async (tx) => {
        const inserted = await tx.query(
          `INSERT INTO ${schema}.inbox (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [consumer, event.id],
        );
        if (inserted.rowCount === 0) return false;
        await handle(tx, { ...event, payload });
        return true;
      });
      if (!processed)
        logger.debug({ consumer, eventName: event.name, eventId: event.id }, 'Event already processed; skipped');
    },
  });
}
