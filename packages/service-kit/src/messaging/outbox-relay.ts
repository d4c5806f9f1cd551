import type { EventEnvelope } from '@whistle/contracts';
import type { Database, Queryable } from '../database/database';
import { assertSchemaName } from '../database/migrate';
import type { Logger } from '../logging/logger';
import type { EventBus } from './event-bus';

export interface OutboxRelayOptions {
  db: Database;
  schema: string;
  bus: EventBus;
  logger: Logger;
  /** Polling period: the safety net that publishes whatever `notify()` did not. */
  intervalMs?: number;
  /** Rows read (and, on PostgreSQL, locked) per round. */
  batchSize?: number;
}

export interface OutboxRelay {
  /** Publishes every unpublished event now; resolves with how many were published, rejects if the bus failed. */
  flush(): Promise<number>;
  /** Asks for a flush without waiting for it (call right after committing an event); failures are logged. */
  notify(): void;
  /** Stops polling and waits for a flush in progress. */
  stop(): Promise<void>;
}

interface OutboxRow {
  id: string;
  name: string;
  version: number;
  company_id: string | null;
  occurred_at: Date;
  payload: Record<string, unknown>;
}

/**
 * Publishes the outbox: oldest first, each event marked published only once the bus has confirmed it.
 * A bus failure stops the round and leaves the rest for the next one, so nothing is lost, and an event
 * confirmed but not yet marked (a crash in between) is published again: consumers are idempotent.
 * On PostgreSQL each round locks its rows with FOR UPDATE SKIP LOCKED, so relays in several replicas
 * share the work without publishing the same row twice. PGlite serves one process and is one connection,
 * so there it reads without a lock and marks rows afterwards, keeping the connection free while publishing.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, schema, bus, logger } = options;
  assertSchemaName(schema);
  const intervalMs = options.intervalMs ?? 1000;
  const batchSize = options.batchSize ?? 100;
  const select = `SELECT id, name, version, company_id, occurred_at, payload FROM ${schema}.outbox
    WHERE published_at IS NULL ORDER BY position LIMIT $1`;

  /** Publishes rows in order; returns the ids confirmed and the error that stopped it, if any. */
  async function publishRows(rows: OutboxRow[]): Promise<{ confirmed: string[]; failure?: unknown }> {
    const confirmed: string[] = [];
    for (const row of rows) {
      const event: EventEnvelope = { ...row, occurred_at: row.occurred_at.toISOString() };
      try {
        await bus.publish(event);
      } catch (error) {
        const failure = new Error(
          `Outbox relay could not publish ${row.name} ${row.id} from ${schema}: ${(error as Error)?.message}`,
          { cause: error },
        );
        return { confirmed, failure };
      }
      confirmed.push(row.id);
    }
    return { confirmed };
  }

  async function markPublished(q: Queryable, ids: string[]): Promise<void> {
    if (ids.length > 0)
      await q.query(`UPDATE ${schema}.outbox SET published_at = now() WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** One batch; returns the number published and whether more may be waiting. */
  async function round(): Promise<{ published: number; more: boolean }> {
    const outcome =
      db.kind === 'postgres'
        ? await db.transaction(async (tx) => {
            const { rows } = await tx.query<OutboxRow>(`${select} FOR UPDATE SKIP LOCKED`, [batchSize]);
            const result = await publishRows(rows);
            await markPublished(tx, result.confirmed);
            return { ...result, read: rows.length };
          })
        : await (async () => {
            const { rows } = await db.query<OutboxRow>(select, [batchSize]);
            const result = await publishRows(rows);
            await markPublished(db, result.confirmed);
            return { ...result, read: rows.length };
          })();
    if (outcome.failure) throw outcome.failure;
    return { published: outcome.confirmed.length, more: outcome.read === batchSize };
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const { published, more } = await round();
      total += published;
      if (!more) return total;
    }
  }

  // At most one drain runs; a flush asked for meanwhile gets one more drain after it, so an event
  // committed just before the call is always covered by the promise it receives.
  let running: Promise<number> | undefined;
  let queued: Promise<number> | undefined;
  function flush(): Promise<number> {
    if (!running) {
      const current: Promise<number> = drain().finally(() => {
        if (running === current) running = undefined;
      });
      running = current;
      return current;
    }
    if (!queued) {
      queued = running
        .catch(() => 0)
        .then(() => {
          queued = undefined;
          return flush();
        });
    }
    return queued;
  }

  let stopped = false;
  function notify(): void {
    if (stopped) return;
    flushAndLog();
  }
  function flushAndLog(): void {
    flush().catch((error) =>
      logger.warn(
        { err: error, schema },
        'Outbox relay round failed; the events stay in the outbox for the next round',
      ),
    );
  }

  const timer = setInterval(flushAndLog, intervalMs);
  // The relay alone must not keep a process (or a test run) alive.
  timer.unref();
  // Events written before a restart go out now rather than at the first tick.
  flushAndLog();

  return {
    flush,
    notify,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([running, queued]);
    },
  };
}
