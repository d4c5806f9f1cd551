import { readSchemaFiles } from '@whistle/service-kit';

export const NOTIFICATION_SCHEMA = 'notification';

/**
 * The notification schema's migration stream: its history in migrations/NNN_name.sql, each applied once and never edited
 * (docs/architecture.md, "The database's state in files"). A function, trigger or view it gains has its current
 * text in sql/.
 */
export const notificationMigrations = readSchemaFiles(NOTIFICATION_SCHEMA, __dirname);
