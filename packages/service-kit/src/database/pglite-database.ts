import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, types, type Results, type Transaction } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database';

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
  ) {}

  /** Opens (or creates) the database in `dataDir`, or in memory when it is omitted. */
  static async open(dataDir?: string): Promise<PgliteDatabase> {
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
      const pglite = await PGlite.create(key, { parsers });
      return new PgliteDatabase(pglite, key);
    } catch (error) {
      if (key !== undefined) openDataDirs.delete(key);
      throw error;
    }
  }

  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return run<R>(this.pglite, sql, params);
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.pglite.transaction(async (pgliteTx) => {
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

  async close(): Promise<void> {
    if (this.pglite.closed) return;
    try {
      await this.pglite.close();
    } finally {
      if (this.dataDirKey !== undefined) openDataDirs.delete(this.dataDirKey);
    }
  }
}
