export { createTestDatabase, testDatabaseUrl, type TestDatabase } from './postgres';
export { createBrokerUser, deleteRabbitTopology, testAmqpUrl, uniqueTestName, type TestBrokerUser } from './rabbitmq';
export { createRecordingLogger, type RecordingLogger, type LogEntry } from './recording-logger';
export { waitFor } from './wait-for';
export { createTestDependencies, testStacks, type TestStack, type TestDependencies } from './dependencies';
export { serveService, type ServedService } from './serve-service';
export { createTcpProxy, type TcpProxy } from './tcp-proxy';
export { tablesOutsideTenantWall } from './tenant-wall';
export { crossSchemaAttempts, serviceLoginSql, type CrossSchemaAttempt } from './service-logins';
export {
  catalogBesideBookkeeping,
  migrateAsBeforeFiles,
  migrationFileHolds,
  migrationFileText,
  schemaCatalog,
  streamBefore,
  upgradeSchemaMadeBeforeFiles,
  type MigrationsBeforeFiles,
  type SchemaCatalog,
  type SchemaUpgrade,
} from './schema-upgrade';
export { describeSchemaMigrations, type SchemaMigrationsSuite } from './schema-migrations-suite';
