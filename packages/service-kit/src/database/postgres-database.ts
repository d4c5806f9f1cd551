import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database';
import { ServiceUnavailableError } from '../errors/errors';
import type { Logger } from '../logging/logger';
import { readDatabasePool } from '../metrics/metrics';

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

/**
 * Errors that say the server cannot serve now (restart, failover, outage), not that a statement was
 * wrong: SQLSTATE class 08 (connection exception), shutdowns (57P01-57P03), too many connections, a
 * read-only server (a former primary after failover), and the socket errors of an unreachable host.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** pg reports a lost or unobtainable connection with these messages and no code. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Duck-typed: socket errors can come from another realm (jest's sandbox), where `instanceof Error` fails.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return true;
  if (typeof code === 'string' && UNAVAILABLE_SOCKET_CODES.has(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

export interface PostgresDatabaseOptions {
  connectionString: string;
  /** Pool size; the default suits one service process. */
  max?: number;
  /** How long a request waits for a connection before it answers 503 (a server that does not answer). */
  connectionTimeoutMs?: number;
  logger?: Logger;
}

/**
 * The cluster adapter: a `pg` Pool; a transaction is BEGIN/COMMIT/ROLLBACK on one pooled client.
 * A restart, failover or outage of the server never crashes the process: every client, idle or checked
 * out, has an error listener, and a call made while the server is unreachable fails with a
 * ServiceUnavailableError (503 with Retry-After). The outage is logged once when it starts and once
 * when it ends, not once per request.
 */
export class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly logger?: Logger;
  private closed = false;
  private available = true;
  private readonly stopMetrics: () => void;

  constructor(options: PostgresDatabaseOptions) {
    this.logger = options.logger;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
      types: typeParsers,
    });
    // An idle client losing its connection (server restart) is reported here; without a listener it would crash the process.
    this.pool.on('error', (error) => this.failed(error));
    this.stopMetrics = readDatabasePool(async () => [
      { labels: { state: 'total' }, value: this.pool.totalCount },
      { labels: { state: 'idle' }, value: this.pool.idleCount },
      { labels: { state: 'waiting' }, value: this.pool.waitingCount },
    ]);
  }

  async query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    try {
      const result = await run<R>(this.pool, sql, params);
      this.served();
      return result;
    } catch (error) {
      throw this.failed(error);
    }
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failed(error);
    }
    const connection: { broken?: Error } = {};
    // A checked-out client is not watched by the pool: a server restart mid-transaction emits 'error' on
    // the client itself, which would crash the process without this listener.
    const onClientError = (error: Error) => {
      connection.broken = error;
      this.failed(error);
    };
    client.on('error', onClientError);
    try {
      const result = await this.inTransaction(client, connection, work);
      this.served();
      return result;
    } catch (error) {
      if (isDatabaseUnavailable(error)) connection.broken ??= error as Error;
      throw this.failed(error);
    } finally {
      client.off('error', onClientError);
      // A client whose connection failed is destroyed rather than returned to the pool.
      client.release(connection.broken);
    }
  }

  /** Notes that the server answered; logs the end of an outage. */
  private served(): void {
    if (this.available) return;
    this.available = true;
    this.logger?.info('PostgreSQL is reachable again');
  }

  /**
   * What a caller gets for `error`: a ServiceUnavailableError when the server cannot serve (the
   * outage's start is logged once), else the error itself.
   */
  private failed(error: unknown): unknown {
    if (!isDatabaseUnavailable(error)) return error;
    if (this.available) {
      this.available = false;
      this.logger?.warn(
        { code: (error as { code?: unknown }).code, reason: (error as Error).message },
        'PostgreSQL is unreachable; requests answer 503 until it is back',
      );
    }
    return error instanceof ServiceUnavailableError
      ? error
      : new ServiceUnavailableError('The database is unavailable, please try again shortly', 5, { cause: error });
  }

  private async inTransaction<T>(
    client: pg.PoolClient,
    connection: { broken?: Error },
    work: (tx: Queryable) => Promise<T>,
  ): Promise<T> {
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
        // The connection is unusable (e.g. it was lost): destroyed rather than reused. The work's own
        // error is what the caller gets (nothing was committed either way).
        connection.broken = rollbackError as Error;
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopMetrics();
    await this.pool.end();
  }
}
