import type { Port } from '../ports/port';
import type { Database } from './database';
import { openDatabase } from './open-database';

/** PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pgdata. Ready while `SELECT 1` answers. */
export const databasePort: Port<Database> = {
  name: 'database',
  open: (config, logger) =>
    openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
      pgliteFsync: config.PGLITE_FSYNC === 'on',
      logger,
    }),
  ready: (db) => db.query('SELECT 1'),
};
