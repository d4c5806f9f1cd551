export type {
  Database,
  Migration,
  MigrationStream,
  NotificationListener,
  NotificationSubscription,
  Queryable,
  QueryOptions,
  QueryResult,
  RepeatableDefinition,
} from './database';
export { assertChannelName } from './database';
export { PostgresDatabase, type PostgresDatabaseOptions } from './postgres-database';
export { EMBEDDED_DATABASE_MISSING, openDatabase, type OpenDatabaseOptions } from './open-database';
export { migrate, assertSchemaName, sqlChecksum, type MigrateResult } from './migrate';
export {
  migrationStatus,
  type MigrationState,
  type MigrationStatus,
  type RepeatableState,
  type RepeatableStatus,
  type SchemaStatus,
} from './migration-status';
export { readSchemaFiles } from './schema-files';
export {
  asTenant,
  currentTenant,
  serviceDatabase,
  SHARED_TENANT_ROLE,
  tenantRoleFor,
  tenantRolePerSchemaSql,
  tenantRoleSql,
  tenantStatement,
  tenantPoliciesSql,
  tenantWallSql,
  TENANT_ROLE_PREFIX,
  TENANT_SETTING,
  type TenantTable,
} from './tenant-wall';
export { createWriteBatcher, type WriteBatcher, type WriteBatcherOptions } from './write-batcher';
