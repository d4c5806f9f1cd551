import { readSchemaFiles } from '@whistle/service-kit';

export const AUTH_SCHEMA = 'auth';

/**
 * The auth schema's migration stream: its history in migrations/NNN_name.sql, each applied once and never edited,
 * and the current text of its functions in sql/, applied again whenever it changes (docs/architecture.md,
 * "The database's state in files").
 */
export const authMigrations = readSchemaFiles(AUTH_SCHEMA, __dirname);
