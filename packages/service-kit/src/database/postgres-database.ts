import pg from 'pg';
import {
  assertChannelName,
  type QueryOptions,
  type Database,
  type NotificationListener,
  type NotificationSubscription,
  type Queryable,
  type QueryResult,
} from './database';
import { ServiceUnavailableError } from '../errors/errors';
import type { Logger } from '../logging/logger';
import { readDatabasePool } from '../metrics/metrics';
import { currentTenant, tenantTransactionStart } from './tenant-wall';

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
  options?: QueryOptions,
): Promise<QueryResult<R>> {
  // Without parameters pg uses the simple query protocol, so several statements are allowed (as with PGlite).
  const values = params && params.length > 0 ? [...params] : undefined;
  const result = options?.name
    ? await target.query<R & pg.QueryResultRow>({ name: options.name, text: sql, values })
    : await target.query<R & pg.QueryResultRow>(sql, values);
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
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|Query read timeout)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Duck-typed: socket errors can come from another realm (jest's sandbox), where `instanceof Error` fails.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return true;
  if (typeof code === 'string' && UNAVAILABLE_SOCKET_CODES.has(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

/**
 * How long after an outage ends a cut connection is still one of its stragglers: pooled connections the outage
 * cut fail when next used, and an idle one is dropped within the pool's 10 s idle timeout. A cut later than this
 * is a new restart, logged.
 */
const STRAGGLER_WINDOW_MS = 30_000;

/** A connection that was open and is cut (the server restarted or ended it), as opposed to one that cannot be opened. */
function isCutConnection(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '57P01' || code === '57P02' || code === 'ECONNRESET' || code === 'EPIPE') return true;
  return (
    typeof message === 'string' &&
    /^(Connection terminated|terminating connection|Client has encountered a connection error)/.test(message)
  );
}

/** How long a lost listening connection waits before it is opened again. */
const LISTEN_RETRY_MS = 1000;

export interface PostgresDatabaseOptions {
  connectionString: string;
  /** Pool size; the default suits one service process. */
  max?: number;
  /** How long a request waits for a connection before it answers 503 (a server that does not answer). */
  connectionTimeoutMs?: number;
  /**
   * How long a query may wait for the server's answer before the call answers 503 and its connection is dropped:
   * a server behind a black-hole partition (packets dropped, no reset) would otherwise hold it for the kernel's
   * ~15 minutes of retransmissions. Longer than any statement the services run.
   */
  queryTimeoutMs?: number;
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
  /** When the last outage ended, and whether the current failures are its stragglers (see `failed`). */
  private recoveredAt = Number.NEGATIVE_INFINITY;
  private quietOutage = false;
  private readonly stopMetrics: () => void;
  private readonly clientConfig: pg.ClientConfig;
  /** Open subscriptions, ended with the pool so none keeps the process alive. */
  private readonly subscriptions = new Set<NotificationSubscription>();

  constructor(options: PostgresDatabaseOptions) {
    this.logger = options.logger;
    this.clientConfig = {
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
      query_timeout: options.queryTimeoutMs ?? 60_000,
      // Probes an idle connection, so one cut by a partition is found and dropped rather than kept for ever.
      keepAlive: true,
    };
    // The listening connections (`listen`) open as the pool's do.
    this.pool = new pg.Pool({ ...this.clientConfig, max: options.max ?? 10, types: typeParsers });
    // An idle client losing its connection (server restart) is reported here; without a listener it would crash the process.
    this.pool.on('error', (error) => this.failed(error));
    this.stopMetrics = readDatabasePool(async () => [
      { labels: { state: 'total' }, value: this.pool.totalCount },
      { labels: { state: 'idle' }, value: this.pool.idleCount },
      { labels: { state: 'waiting' }, value: this.pool.waitingCount },
    ]);
  }

  async query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<R>> {
    // In a tenant's scope a statement needs its transaction: the role and company id last only that long.
    if (currentTenant() !== undefined) return this.transaction((tx) => tx.query<R>(sql, params, options));
    try {
      const result = await run<R>(this.pool, sql, params, options);
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

  /**
   * LISTEN on a connection of its own, outside the pool (a pooled connection is shared, and LISTEN lasts as
   * long as the session). A lost connection is reported (`interrupted`), then opened again every second
   * until it listens (`listening`): whoever relies on the notifications knows when they may have been missed.
   */
  async listen(channel: string, listener: NotificationListener): Promise<NotificationSubscription> {
    assertChannelName(channel);
    let current: pg.Client | undefined;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const open = async (): Promise<void> => {
      const client = new pg.Client(this.clientConfig);
      // A failure while connecting rejects connect(); after that, 'end' follows any error.
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        client.end().catch(() => undefined);
        throw error;
      }
      if (closed) {
        await client.end();
        return;
      }
      current = client;
      client.on('notification', (message) => {
        if (message.channel === channel) listener.notified(message.payload ?? '');
      });
      client.once('end', () => {
        if (current !== client) return;
        current = undefined;
        this.logger?.warn({ channel }, 'listening connection lost; notifications are missed until it is back');
        listener.interrupted();
        openLater();
      });
      listener.listening();
    };
    const openLater = () => {
      if (closed) return;
      retry = setTimeout(() => {
        open().then(
          () => this.logger?.info({ channel }, 'listening again'),
          () => openLater(),
        );
      }, LISTEN_RETRY_MS);
      retry.unref();
    };
    try {
      await open();
    } catch (error) {
      this.logger?.warn({ channel, reason: (error as Error).message }, 'cannot listen yet; trying again');
      listener.interrupted();
      openLater();
    }
    const subscription: NotificationSubscription = {
      close: async () => {
        closed = true;
        this.subscriptions.delete(subscription);
        clearTimeout(retry);
        const client = current;
        current = undefined;
        await client?.end();
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Notes that the server answered; logs the end of an outage. */
  private served(): void {
    if (this.available) return;
    this.available = true;
    if (this.quietOutage) {
      this.quietOutage = false;
      return;
    }
    this.recoveredAt = Date.now();
    this.logger?.info('PostgreSQL is reachable again');
  }

  /**
   * What a caller gets for `error`: a ServiceUnavailableError when the server cannot serve (the
   * outage's start is logged once), else the error itself. After a restart, each pooled connection the
   * server cut fails once when next used, possibly after others already served: a cut connection within
   * STRAGGLER_WINDOW_MS of the end of an outage is a straggler of it, not logged; a connection that cannot be
   * opened, or a cut later than that, is a new outage, logged.
   */
  private failed(error: unknown): unknown {
    if (!isDatabaseUnavailable(error)) return error;
    const straggler = isCutConnection(error) && Date.now() - this.recoveredAt < STRAGGLER_WINDOW_MS;
    if (this.available) {
      this.available = false;
      this.quietOutage = straggler;
      if (!straggler) this.logOutage(error);
    } else if (this.quietOutage && !straggler) {
      this.quietOutage = false;
      this.logOutage(error);
    }
    return error instanceof ServiceUnavailableError
      ? error
      : new ServiceUnavailableError('The database is unavailable, please try again shortly', 5, { cause: error });
  }

  private logOutage(error: unknown): void {
    this.logger?.warn(
      { code: (error as { code?: unknown }).code, reason: (error as Error).message },
      'PostgreSQL is unreachable; requests answer 503 until it is back',
    );
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
      query: <R>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
        if (!open)
          return Promise.reject(
            new Error('Transaction already finished: a query ran after the transaction callback returned'),
          );
        const next = previous.then(() => run<R>(client, sql, params, options));
        previous = next.catch(() => undefined);
        return next;
      },
    };
    try {
      const tenant = tenantTransactionStart();
      await client.query(tenant === undefined ? 'BEGIN' : `BEGIN; ${tenant}`);
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
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.pool.end();
  }
}
