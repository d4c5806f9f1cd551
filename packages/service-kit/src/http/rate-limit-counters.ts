import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { IncrementResponse, Options, Store } from 'express-rate-limit';
import type { Database, MigrationStream } from '../database/database';
import { assertSchemaName } from '../database/migrate';
import { createWriteBatcher } from '../database/write-batcher';

/**
 * Where a service's rate limiters keep their counts, and how a key (a client address, an e-mail) is made
 * unlinkable before it is counted: only an HMAC of it is ever held.
 */
export interface RateLimitCounters {
  /** The store of the limiter `name`; undefined for express-rate-limit's in-memory store. */
  storeFor(name: string): Store | undefined;
  hashKey(key: string): string;
}

const hmacWith = (secret: Buffer) => (key: string) => createHmac('sha256', secret).update(key).digest('base64url');

/**
 * Counts in this process's memory, with a random secret: what one process (standalone, tests) needs. With
 * N replicas a client would get N × the limit, and a restart forgets; clusters use `sharedRateLimitCounters`.
 */
export function processRateLimitCounters(): RateLimitCounters {
  return { storeFor: () => undefined, hashKey: hmacWith(randomBytes(32)) };
}

/** The table the shared counters live in, in the service's own schema: a migration stream of its own. */
export function rateLimitMigrations(schema: string): MigrationStream {
  assertSchemaName(schema);
  const migrations = [
    {
      id: '000_rate_limit',
      sql: `
        -- One row per limiter and hashed key (an HMAC: never an address or an e-mail) and its current window.
        CREATE TABLE ${schema}.rate_limit_counter (
          key text PRIMARY KEY,
          hits integer NOT NULL,
          reset_at timestamptz NOT NULL
        );
        CREATE INDEX rate_limit_counter_reset_idx ON ${schema}.rate_limit_counter (reset_at);
      `,
    },
  ];
  return { name: 'rate limit', migrations };
}

/** Expired windows are swept every this many increments of a process: the table stays as small as the traffic. */
const SWEEP_EVERY = 500;

/**
 * Counts in the service's PostgreSQL schema, so every replica and a restarted one share each limit. Keys are
 * HMAC-ed with a key derived from `secret` — a secret every replica of the service already shares — so all
 * replicas count the same key alike while a database dump alone cannot tell which address or e-mail a row is.
 * One statement per batch of counted requests (an upsert that starts a new window once the old one is over).
 */
export function sharedRateLimitCounters({
  db,
  schema,
  secret,
}: {
  db: Database;
  schema: string;
  secret: string | Buffer;
}): RateLimitCounters {
  assertSchemaName(schema);
  const table = `${schema}.rate_limit_counter`;
  const hashKey = hmacWith(Buffer.from(hkdfSync('sha256', secret, 'whistle', 'rate-limit-keys', 32)));
  let increments = 0;

  function sweep(): void {
    db.query(`DELETE FROM ${table} WHERE reset_at < now()`).catch(() => undefined);
  }

  return {
    hashKey,
    storeFor(name) {
      let windowMs = 60_000;
      const keyOf = (key: string) => `${name}:${key}`;
      // The increments that arrive together are counted by one statement (a write batcher: group commit); a key
      // counted n times in it moves by n, and its callers get the counts one after the other, in arrival order.
      const counting = createWriteBatcher<string, IncrementResponse>({
        async write(keys) {
          const times = new Map<string, number>();
          for (const key of keys) times.set(key, (times.get(key) ?? 0) + 1);
          // Committed without waiting for the WAL flush (synchronous_commit off for this statement alone): a
          // company's requests share one counter row, whose lock would otherwise be held through every flush, one
          // request after the other. A crash can lose the last instants' counts, never anything else. Rows are
          // upserted in key order, so two statements that count the same keys never deadlock.
          const { rows } = await db.query<{ key: string; hits: number; reset_at: Date }>(
            `INSERT INTO ${table} AS counter (key, hits, reset_at)
             SELECT counted.key, counted.times, now() + make_interval(secs => $3::double precision / 1000)
               FROM unnest($1::text[], $2::int[]) AS counted(key, times),
                    (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
              ORDER BY counted.key
             ON CONFLICT (key) DO UPDATE SET
               hits = CASE WHEN counter.reset_at <= now() THEN excluded.hits ELSE counter.hits + excluded.hits END,
               reset_at = CASE WHEN counter.reset_at <= now() THEN excluded.reset_at ELSE counter.reset_at END
             RETURNING key, hits, reset_at`,
            [[...times.keys()], [...times.values()], windowMs],
            { name: `rate-limit-increment-${schema}` },
          );
          const counted = new Map(
            rows.map((row) => [row.key, { hits: row.hits - times.get(row.key)!, resetTime: row.reset_at }]),
          );
          return keys.map((key) => {
            const count = counted.get(key)!;
            count.hits += 1;
            return { totalHits: count.hits, resetTime: count.resetTime };
          });
        },
        maxBatchSize: 256,
        maxConcurrentBatches: 2,
      });
      return {
        localKeys: false,
        prefix: `${name}:`,
        init(options: Options) {
          windowMs = options.windowMs;
        },
        increment: (key: string) => {
          increments += 1;
          if (increments % SWEEP_EVERY === 0) sweep();
          return counting.write(keyOf(key));
        },
        async decrement(key: string): Promise<void> {
          await db.query(`UPDATE ${table} SET hits = greatest(hits - 1, 0) WHERE key = $1 AND reset_at > now()`, [
            keyOf(key),
          ]);
        },
        async resetKey(key: string): Promise<void> {
          await db.query(`DELETE FROM ${table} WHERE key = $1`, [keyOf(key)]);
        },
      };
    },
  };
}

/** Shared counters on PostgreSQL (a cluster: replicas count together); this process's memory on PGlite (standalone). */
export function rateLimitCountersFor(options: {
  db: Database;
  schema: string;
  secret: string | Buffer;
}): RateLimitCounters {
  return options.db.kind === 'postgres' ? sharedRateLimitCounters(options) : processRateLimitCounters();
}
