import path from 'node:path';
import type { Database } from './database';
import type { PgliteDatabase } from './pglite-database';
import { PostgresDatabase } from './postgres-database';
import type { Logger } from '../logging/logger';
import { redactUrl } from '../logging/redact-url';

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string (cluster). When set, PGlite is not used. */
  databaseUrl?: string;
  /** Standalone data folder; PGlite keeps its files in `${dataDir}/pgdata`. Omitted: in memory. */
  dataDir?: string;
  /** PGlite's shared_buffers (`32MB`); PGlite's default (128MB) when omitted. */
  pgliteSharedBuffers?: string;
  /** PGlite: a commit returns once it is on disk (default true); false: PGlite's fsync-off default. */
  pgliteFsync?: boolean;
  /** PGlite with a data folder: how often autovacuum's work is done (default a minute, as autovacuum_naptime). */
  pgliteMaintenanceIntervalMs?: number;
  logger?: Logger;
}

/** Where the embedded database is asked for but not installed (a service's container image). */
export const EMBEDDED_DATABASE_MISSING =
  'DATABASE_URL is not set and this installation has no embedded database (@electric-sql/pglite comes with the standalone platform only): set DATABASE_URL to a PostgreSQL server';

/**
 * PGlite is loaded only when it is used: an optional peer dependency, installed with the standalone platform and for
 * tests, never in a service's image (27 MB that a cluster never runs).
 */
async function loadPglite(): Promise<typeof PgliteDatabase> {
  try {
    return (await import('./pglite-database')).PgliteDatabase;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'MODULE_NOT_FOUND' && message.includes("'@electric-sql/pglite"))
      throw new Error(EMBEDDED_DATABASE_MISSING, { cause: error });
    throw error;
  }
}

/**
 * PostgreSQL when a URL is configured, else embedded PGlite (existing data in the folder is reopened).
 * PostgreSQL is reached once before this resolves, so a wrong URL fails at start-up, not at the first request.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const db = new PostgresDatabase({ connectionString: options.databaseUrl, logger: options.logger });
    try {
      await db.query('SELECT 1');
    } catch (error) {
      await db.close();
      throw new Error(`Cannot reach PostgreSQL at ${redactUrl(options.databaseUrl)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return db;
  }
  const PgliteDatabase = await loadPglite();
  if (options.dataDir === undefined)
    return PgliteDatabase.open(undefined, { sharedBuffers: options.pgliteSharedBuffers });
  // A data folder lives on: it needs what autovacuum does on a server. An in-memory database (tests) does not.
  return PgliteDatabase.open(path.join(options.dataDir, 'pgdata'), {
    sharedBuffers: options.pgliteSharedBuffers,
    fsync: options.pgliteFsync,
    maintenanceIntervalMs: options.pgliteMaintenanceIntervalMs ?? 60_000,
    logger: options.logger,
  });
}
