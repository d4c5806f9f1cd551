import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, types, type Results, type Transaction } from '@electric-sql/pglite';
import {
  assertChannelName,
  type Database,
  type NotificationListener,
  type NotificationSubscription,
  type Queryable,
  type QueryResult,
} from './database';
import { DurableNodeFS, syncDirectoryTree } from './pglite-durable-fs';
import { maintainPglite, startPgliteMaintenance, type MaintainedTable } from './pglite-maintenance';
import type { Logger } from '../logging/logger';
import { currentTenant, tenantTransactionStart } from './tenant-wall';

/**
 * PGlite parses a few types differently from `pg`; these make both adapters return the same values,
 * so domain code and tests behave identically on either engine: int8 (e.g. `count(*)`) as a string
 * (it can exceed Number.MAX_SAFE_INTEGER), interval as its text form, bytea as a Buffer.
 */
const parsers = {
  [types.INT8]: (value: string) => value,
  [types.INTERVAL]: (value: string) => value,
  [types.BYTEA]: (value: string) => Buffer.from(value.slice(2), 'hex'),
};

/**
 * PGlite's defaults without `-F` (fsync off), with fsync() as the WAL's sync method: fdatasync() is a no-op in
 * Emscripten, fsync() reaches the disk through {@link DurableNodeFS}.
 */
export const durableStartParams: readonly string[] = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'wal_sync_method=fsync',
];

/** Data directories open in this process: a second PGlite on the same files would corrupt them. */
const openDataDirs = new Set<string>();

function toResult<R>(result: Results<R>): QueryResult<R> {
  // PGlite reports affectedRows for INSERT/UPDATE/DELETE only; pg's rowCount is the number of rows for SELECT.
  return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
}

/**
 * Runs SQL on a PGlite connection. Without parameters it uses the simple query protocol, like `pg`:
 * several statements are allowed (migrations) and the result of the last one is returned.
 */
async function run<R>(target: PGlite | Transaction, sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
  if (!params || params.length === 0) {
    const results = (await target.exec(sql)) as Results<R>[];
    const last = results[results.length - 1];
    return last ? toResult(last) : { rows: [], rowCount: 0 };
  }
  return toResult(await target.query<R>(sql, params as unknown[]));
}

/**
 * The embedded adapter: one PGlite (PostgreSQL in WASM) per process. PGlite is a single connection, so
 * `transaction()` goes through PGlite's own `transaction()`, which holds its mutex: concurrent callers
 * queue instead of interleaving statements. Inside `work`, use only `tx`: calling `db.query` or
 * `db.transaction` there waits for the very transaction that is running and never returns.
 */
export class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;

  private constructor(
    private readonly pglite: PGlite,
    private readonly dataDirKey: string | undefined,
    private readonly maintenance: { stop(): Promise<void> } | undefined,
  ) {}

  /**
   * Opens (or creates) the database in `dataDir`, or in memory when it is omitted. `sharedBuffers`: PostgreSQL's
   * shared_buffers (`32MB`), all of it resident once started. `fsync` (default true, data folder only): a commit
   * returns once its WAL is on disk, as on a PostgreSQL server; false keeps PGlite's defaults (`-F`: fsync off,
   * a power cut can lose recent commits or corrupt the folder). In memory there is nothing to sync.
   * `maintenanceIntervalMs`: how often autovacuum's work is done (pglite-maintenance.ts); none when omitted.
   */
  static async open(
    dataDir?: string,
    {
      sharedBuffers,
      fsync = true,
      maintenanceIntervalMs,
      logger,
    }: { sharedBuffers?: string; fsync?: boolean; maintenanceIntervalMs?: number; logger?: Logger } = {},
  ): Promise<PgliteDatabase> {
    const key = dataDir === undefined ? undefined : path.resolve(dataDir);
    if (key !== undefined) {
      if (openDataDirs.has(key))
        throw new Error(
          `PGlite data directory ${key} is already open in this process; share the Database instance instead`,
        );
      mkdirSync(key, { recursive: true });
      openDataDirs.add(key);
    }
    try {
      const durableDir = fsync ? key : undefined;
      const startParams = [
        ...(durableDir ? durableStartParams : PGlite.defaultStartParams),
        ...(sharedBuffers ? ['-c', `shared_buffers=${sharedBuffers}`] : []),
      ];
      const pglite = durableDir
        ? await PGlite.create({ fs: new DurableNodeFS(durableDir), parsers, startParams })
        : await PGlite.create(key, { parsers, startParams });
      if (durableDir) {
        try {
          syncDirectoryTree(durableDir);
        } catch (error) {
          await pglite.close();
          throw error;
        }
      }
      const maintenance =
        maintenanceIntervalMs === undefined
          ? undefined
          : startPgliteMaintenance(pglite, { intervalMs: maintenanceIntervalMs, logger });
      return new PgliteDatabase(pglite, key, maintenance);
    } catch (error) {
      if (key !== undefined) openDataDirs.delete(key);
      throw error;
    }
  }

  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    // In a tenant's scope a statement needs its transaction: the role and company id last only that long.
    if (currentTenant() !== undefined) return this.transaction((tx) => tx.query<R>(sql, params));
    return run<R>(this.pglite, sql, params);
  }

  /** One connection, one process: its own notifications are the only ones, and it never loses them. */
  async listen(channel: string, listener: NotificationListener): Promise<NotificationSubscription> {
    assertChannelName(channel);
    const unlisten = await this.pglite.listen(channel, (payload) => listener.notified(payload));
    listener.listening();
    return { close: () => (this.pglite.closed ? Promise.resolve() : unlisten()) };
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    let tenant: string | undefined;
    try {
      tenant = tenantTransactionStart();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.pglite.transaction(async (pgliteTx) => {
      if (tenant !== undefined) await pgliteTx.exec(tenant);
      let open = true;
      const tx: Queryable = {
        query: <R>(sql: string, params?: readonly unknown[]) => {
          if (!open)
            return Promise.reject(
              new Error('Transaction already finished: a query ran after the transaction callback returned'),
            );
          return run<R>(pgliteTx, sql, params);
        },
      };
      try {
        return await work(tx);
      } finally {
        open = false;
      }
    });
  }

  /** One round of autovacuum's work now (pglite-maintenance.ts): what was vacuumed or analysed. */
  maintain(): Promise<MaintainedTable[]> {
    return maintainPglite(this.pglite);
  }

  async close(): Promise<void> {
    await this.maintenance?.stop();
    if (this.pglite.closed) return;
    try {
      await this.pglite.close();
    } finally {
      if (this.dataDirKey !== undefined) openDataDirs.delete(this.dataDirKey);
    }
  }
}
