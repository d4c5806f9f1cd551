import { readSchemaFiles } from '@whistle/service-kit';

export const INCIDENT_SCHEMA = 'incident';

/**
 * The incident schema's migration stream: its history in migrations/NNN_name.sql, each applied once and never edited,
 * and the current text of its functions and triggers in sql/, applied again whenever it changes (docs/architecture.md,
 * "The database's state in files").
 */
export const incidentMigrations = readSchemaFiles(INCIDENT_SCHEMA, __dirname);
