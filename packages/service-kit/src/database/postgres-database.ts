import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database';
import type { Logger } from '../logging/logger';

/** Interval as its text form, like the PGlite adapter (pg's default is an object). */
const INTERVAL_OID = 1186;
const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INTERVAL_OID && format !== 'binary'
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

type PgResult<R> = pg.QueryResult<R & pg.QueryResultRow>;

function toResult<R>(result: PgResult<R> | PgResult<R>[]): QueryResult<R> {
  // A parameterless query with several statements (a migration) yields one result per statement: keep the last.
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  if (!last) return { rows: [], rowCount: 0 };
  return { rows: last.rows as R[], rowCount: last.rowCount ?? last.rows.length };
}

async function run<R>(
  target: pg.Pool | pg.PoolClient,
  sql: string,
  params?: readonly unknown[],
): Promise<QueryResult<R>> {
  // Without parameters pg uses the simple query protocol, so several statements are allowed (as with PGlite).
  const result = await target.query<R & pg.QueryResultRow>(sql, params && params.length > 0 ? [...params] : undefined);
  return toResult(result as PgResult<R> | PgResult<R>[]);
}

export interface PostgresDatabaseOptions {
  connectionString: string;
  /** Pool size; the default suits one service process. */
  max?: number;
  logger?: Logger;
}

/** The cluster adapter: a `pg` Pool; a transaction is BEGIN/COMMIT/ROLLBACK on one pooled client. */
export class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private closed = false;

  constructor(options: PostgresDatabaseOptions) {
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10, types: typeParsers });
    // An idle client losing its connection (server restart) is reported here; without a listener it would crash the process.
    this.pool.on('error', (error) =>
      options.logger?.warn({ err: error }, 'PostgreSQL idle client error; the pool replaces it'),
    );
  }

  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return run<R>(this.pool, sql, params);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let open = true;
    // One client runs one statement at a time; queries issued together (Promise.all) wait their turn here
    // rather than relying on pg's internal queue, which pg 9 removes.
    let previous: Promise<unknown> = Promise.resolve();
    const tx: Queryable = {
      query: <R>(sql: string, params?: readonly unknown[]) => {
        if (!open)
          return Promise.reject(
            new Error('Transaction already finished: a query ran after the transaction callback returned'),
          );
        const next = previous.then(() => run<R>(client, sql, params));
        previous = next.catch(() => undefined);
        return next;
      },
    };
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      open = false;
      await previous; // A statement the callback did not await still belongs to this transaction.
      const commit = await client.query('COMMIT');
      // PostgreSQL answers COMMIT of a transaction aborted by an earlier (caught) error with a silent
      // ROLLBACK; report it, as PGlite does, instead of letting the caller believe its writes were kept.
      if (commit.command === 'ROLLBACK')
        throw new Error('Transaction rolled back: a statement in it failed earlier, so nothing was committed');
      return result;
    } catch (error) {
      open = false;
      try {
        await previous;
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is unusable (e.g. it was lost): destroy it rather than return it to the pool.
        broken = rollbackError as Error;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
