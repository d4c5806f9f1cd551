export { createTestDatabase, testDatabaseUrl, type TestDatabase } from './postgres';
export { testAmqpUrl, uniqueTestName, deleteRabbitTopology } from './rabbitmq';
export { createRecordingLogger, type RecordingLogger, type LogEntry } from './recording-logger';
export { waitFor } from './wait-for';
export {
  createTestDependencies,
  createRecordingMailer,
  testStacks,
  type TestStack,
  type TestDependencies,
  type RecordingMailer,
} from './dependencies';
export { serveService, type ServedService } from './serve-service';
