export type { Database, Migration, Queryable, QueryResult } from './database';
export { PgliteDatabase } from './pglite-database';
export { PostgresDatabase, type PostgresDatabaseOptions } from './postgres-database';
export { openDatabase, type OpenDatabaseOptions } from './open-database';
export { migrate, assertSchemaName, type MigrateResult } from './migrate';
