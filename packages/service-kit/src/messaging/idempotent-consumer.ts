import type { EventEnvelope } from '@whistle/contracts';
import type { Database, Queryable } from '../database/database';
import { assertSchemaName } from '../database/migrate';
import { createWriteBatcher } from '../database/write-batcher';
import type { Logger } from '../logging/logger';
import type { EventBus } from './event-bus';
import { checkedAgainstCatalogue } from './event-handlers';
import { UnprocessableEventError } from './unprocessable-event-error';

export interface IdempotentSubscription {
  db: Database;
  /** The consuming service's schema, holding its `inbox` (see messagingMigrations). */
  schema: string;
  bus: EventBus;
  consumer: string;
  events: readonly string[];
  /**
   * Why the consumer cannot handle an event (`eventHandlers`: no handler of its version), checked before any
   * transaction: such an event is dead-lettered at once with that reason.
   */
  refusal?(event: EventEnvelope): string | undefined;
  /** Runs in the same transaction as the inbox row: write the read model through `tx` only. */
  handle(tx: Queryable, event: EventEnvelope): Promise<void>;
  logger: Logger;
}

/** Events handled in one transaction at most; deliveries in flight are bounded by the bus's prefetch anyway. */
const MAX_BATCH_SIZE = 32;
/** Transactions of one consumer at once: one can run its handlers while another commits. */
const MAX_CONCURRENT_BATCHES = 2;

/**
 * Subscribes a handler that runs at most once per event id and consumer: the inbox row and the
 * handler's writes commit together (or not at all), and the bus acknowledges only after that commit.
 * A redelivered event finds its inbox row and is acknowledged without running the handler. On
 * PostgreSQL a concurrent duplicate waits on the first one's uncommitted inbox row, then skips.
 * An event the consumer refuses (`refusal`: a version it has no handler for) or whose payload does not fit the
 * event catalogue is dead-lettered at once with the reason, since retrying cannot fix it.
 *
 * The events delivered together are handled together (a write batcher: group commit): one transaction, one
 * statement for their inbox rows, the handler run for each new one in delivery order, one commit, then each is
 * acknowledged. If that transaction fails, each of its events is handled again alone in a transaction of its
 * own, so an event that cannot be handled fails alone and gets its own retries, and no other waits on it. That
 * covers a deadlock too (two batches updating the same rows in another order): PostgreSQL undoes one of them,
 * whose events are then handled alone.
 */
export function subscribeIdempotently(options: IdempotentSubscription): Promise<void> {
  const { db, schema, bus, consumer, events, handle, logger } = options;
  assertSchemaName(schema);

  /** Handles `batch` in one transaction; resolves with whether each was new (false: processed before). */
  const handleTogether = (batch: readonly EventEnvelope[]) =>
    db.transaction(async (tx) => {
      const inserted = await tx.query<{ event_id: string }>(
        `INSERT INTO ${schema}.inbox (consumer, event_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING
         RETURNING event_id`,
        [consumer, [...new Set(batch.map((event) => event.id))]],
      );
      const unprocessed = new Set(inserted.rows.map((row) => row.event_id));
      const processed: boolean[] = [];
      for (const event of batch) {
        // A copy of an event in the same batch (redelivered meanwhile) is handled once.
        const fresh = unprocessed.delete(event.id);
        if (fresh) await handle(tx, event);
        processed.push(fresh);
      }
      return processed;
    });

  const batcher = createWriteBatcher<EventEnvelope, boolean>({
    async write(batch) {
      try {
        return await handleTogether(batch);
      } catch (error) {
        if (batch.length === 1) throw error;
        const alone: (boolean | Error)[] = [];
        for (const event of batch)
          alone.push(
            await handleTogether([event]).then(
              ([fresh]) => fresh!,
              (e: Error) => e,
            ),
          );
        return alone;
      }
    },
    maxBatchSize: MAX_BATCH_SIZE,
    maxConcurrentBatches: MAX_CONCURRENT_BATCHES,
  });

  return bus.subscribe({
    consumer,
    events,
    async handle(event) {
      const refused = options.refusal?.(event);
      if (refused) throw new UnprocessableEventError(refused);
      const processed = await batcher.write(checkedAgainstCatalogue(event));
      if (!processed)
        logger.debug({ consumer, eventName: event.name, eventId: event.id }, 'Event already processed; skipped');
    },
  });
}
