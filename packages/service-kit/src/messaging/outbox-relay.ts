import { AsyncResource } from 'node:async_hooks';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { EventEnvelope } from '@whistle/contracts';
import type { Database } from '../database/database';
import { assertSchemaName } from '../database/migrate';
import type { Logger } from '../logging/logger';
import type { EventBus } from './event-bus';
import { readOutboxAge, readOutboxBacklog, sharedReading } from '../metrics/metrics';
import { inPublishSpan } from '../tracing/messaging-spans';
import { contextFromTraceContext, type TraceContext } from '../tracing/trace-context';

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
  position: string;
  name: string;
  version: number;
  company_id: string | null;
  occurred_at: Date;
  payload: Record<string, unknown>;
  actor: EventEnvelope['actor'] | null;
  trace_context: TraceContext | null;
}

/** How long a claimed row is left to the relay that claimed it before another may take it (a crash mid-round). */
const CLAIM_SECONDS = 60;

/**
 * Publishes the outbox: oldest first, each event marked published only once the bus has confirmed it.
 * A round claims a batch in one statement committed on its own (FOR UPDATE SKIP LOCKED, then a lease), and
 * only then talks to the broker, so no transaction and no connection is held while publishing; one more
 * statement marks what the broker confirmed and frees the rest. Relays in several replicas share the work without
 * publishing a row twice; a relay that dies mid-round leaves its claim to expire. A bus failure stops the
 * round and leaves the rest for the next one, so nothing is lost, and an event confirmed but not yet
 * marked (a crash in between) is published again: consumers are idempotent.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, schema, bus, logger } = options;
  assertSchemaName(schema);
  const intervalMs = options.intervalMs ?? 1000;
  const batchSize = options.batchSize ?? 100;
  const claim = `UPDATE ${schema}.outbox SET claimed_until = now() + interval '${CLAIM_SECONDS} seconds'
    WHERE id IN (
      SELECT id FROM ${schema}.outbox
       WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
       ORDER BY position LIMIT $1 FOR UPDATE SKIP LOCKED)
    RETURNING id, position, name, version, company_id, occurred_at, payload, actor, trace_context`;

  const publishRow = (row: OutboxRow): Promise<void> => {
    const { actor, position: _position, trace_context: traceContext, ...fields } = row;
    const event: EventEnvelope = {
      ...fields,
      occurred_at: row.occurred_at.toISOString(),
      ...(actor ? { actor } : {}),
    };
    // A span of the trace that wrote the event, active while the bus sends it, so consumers continue it.
    return inPublishSpan(bus.kind, event, contextFromTraceContext(traceContext), () => bus.publish(event));
  };
  const failureOf = (row: OutboxRow, error: unknown) =>
    new Error(`Outbox relay could not publish ${row.name} ${row.id} from ${schema}: ${(error as Error)?.message}`, {
      cause: error,
    });

  /**
   * Publishes rows in order; returns the ids confirmed, in order up to the first that was not, and that one's
   * error. RabbitMQ gets them all at once on its channel, which keeps their order, and confirms them as it
   * persists them: a round costs the broker's confirm once, not once per event. (Should it refuse one and confirm
   * a later one, that later one is published again with the rest: consumers drop the copy.) The in-process bus
   * gets them one after the other, since its publish runs the handlers.
   */
  async function publishRows(rows: OutboxRow[]): Promise<{ confirmed: string[]; failure?: unknown }> {
    const confirmed: string[] = [];
    if (bus.kind === 'rabbitmq') {
      const outcomes = await Promise.allSettled(rows.map(publishRow));
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.status === 'rejected') return { confirmed, failure: failureOf(rows[index]!, outcome.reason) };
        confirmed.push(rows[index]!.id);
      }
      return { confirmed };
    }
    for (const row of rows) {
      try {
        await publishRow(row);
      } catch (error) {
        return { confirmed, failure: failureOf(row, error) };
      }
      confirmed.push(row.id);
    }
    return { confirmed };
  }

  /** One batch; returns the number published and whether more may be waiting. */
  async function round(): Promise<{ published: number; more: boolean }> {
    // One statement, committed on its own: the claim holds no transaction open past its own round trip.
    const { rows } = await db.query<OutboxRow>(claim, [batchSize], { name: `outbox-claim-${schema}` });
    // RETURNING keeps no order: the claim is published in the order the events were written.
    rows.sort((a, b) => Number(BigInt(a.position) - BigInt(b.position)));
    const { confirmed, failure } = await publishRows(rows);
    // Marks what the broker confirmed and frees at once, rather than at the lease's end, what it did not.
    if (rows.length > 0)
      await db.query(
        `UPDATE ${schema}.outbox SET claimed_until = NULL,
           published_at = CASE WHEN id = ANY($1::uuid[]) THEN now() ELSE published_at END
         WHERE id = ANY($2::uuid[])`,
        [confirmed, rows.map((row) => row.id)],
        { name: `outbox-mark-${schema}` },
      );
    if (failure) throw failure;
    return { published: confirmed.length, more: rows.length === batchSize };
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

  // notify() is called right after a commit, inside that request's trace and tenant scope (asTenant): the round
  // publishes other requests' events too, of any company, so it runs in no trace (each event's publish span
  // continues its own) and in the async context the relay was started in, as the service itself — and so do the
  // consumers the in-process bus calls from it, which a company's scope would hold to that company's rows.
  const flushAsRelay = AsyncResource.bind(() => context.with(ROOT_CONTEXT, flushAndLog));
  let stopped = false;
  function notify(): void {
    if (stopped) return;
    flushAsRelay();
  }
  // A broker outage fails every round (one per write and per tick): it is logged when it starts and when
  // it ends, not once per round.
  let failing = false;
  function flushAndLog(): void {
    flush().then(
      () => {
        if (!failing) return;
        failing = false;
        logger.info({ schema }, 'Outbox relay publishes again');
      },
      (error: unknown) => {
        if (failing) {
          logger.debug({ schema, reason: (error as Error)?.message }, 'Outbox relay round failed again');
          return;
        }
        failing = true;
        logger.warn({ err: error, schema }, 'Outbox relay cannot publish; the events stay in the outbox until it can');
      },
    );
  }

  // What is waiting in the outbox, read when Prometheus scrapes: one query serves both gauges of a scrape.
  const backlog = sharedReading(async () => {
    const { rows } = await db.query<{ pending: number; age: number }>(
      `SELECT count(*)::int AS pending, coalesce(extract(epoch FROM now() - min(occurred_at)), 0)::float8 AS age
         FROM ${schema}.outbox WHERE published_at IS NULL`,
    );
    return rows[0] ?? { pending: 0, age: 0 };
  });
  const stopBacklogMetric = readOutboxBacklog(async () => [{ labels: { schema }, value: (await backlog()).pending }]);
  const stopAgeMetric = readOutboxAge(async () => [{ labels: { schema }, value: (await backlog()).age }]);

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
      stopBacklogMetric();
      stopAgeMetric();
      await Promise.allSettled([running, queued]);
    },
  };
}
