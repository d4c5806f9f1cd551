// The public API of @whistle/service-kit. Test helpers are a separate entry: @whistle/service-kit/testing.

export * from './errors/errors';
export { inputErrorFromZod, nonFieldErrorsKey } from './errors/input-error-from-zod';

export { loadConfig, type Environment } from './config/load-config';
export { platformConfigSchema, type PlatformConfig } from './config/platform-config';

export {
  createLogger,
  logLevels,
  redactPaths,
  type CreateLoggerOptions,
  type LogFn,
  type Logger,
  type LogLevel,
} from './logging/logger';

export { createHttpApp, type HttpAppOptions } from './http/http-app';
export { errorHandler, httpErrorAnswer, notFoundHandler, type HttpErrorAnswer } from './http/error-handler';
export { healthRouter, NotReadyError, readinessChecks, type Readiness, type ReadinessReport } from './http/health';
export { requestLogger, routeOf } from './http/request-logger';
export {
  applyServerTimeouts,
  cutStalledBodies,
  BODY_IDLE_TIMEOUT_MS,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  STALLED_BODY_MESSAGE,
} from './http/stalled-body';
export { trackRequests, type RequestTracker } from './http/request-tracker';
export { clientAddress, rateLimit, type RateLimitOptions } from './http/rate-limit';
export {
  processRateLimitCounters,
  rateLimitCountersFor,
  rateLimitMigrations,
  sharedRateLimitCounters,
  type RateLimitCounters,
} from './http/rate-limit-counters';
export { parseBody, parseQuery } from './http/validation';
export {
  noErrorReporter,
  startErrorReporting,
  type ErrorReporter,
  type ErrorReportingConfig,
} from './error-reporting/error-reporter';
export { errorReportTunnel, type ErrorReportTunnelOptions } from './error-reporting/tunnel';

export * from './database';
export * from './messaging';

export { databasePort } from './database/database-port';
export { eventBusPort } from './messaging/event-bus-port';
export { createUnitOfWork, type Transaction, type UnitOfWork } from './messaging/unit-of-work';

export type { Adapter, AdapterOf, OpenedAdapters, Port, PortSet, ServiceDependencies } from './ports/port';
export { adapterKinds, closePorts, dependenciesFor, openPorts, portReadiness, unionOfPorts } from './ports/open-ports';

export { defineService, type ServiceConfigSchema, type ServiceDefinition, type WhistleService } from './service';
export {
  createServiceLifecycle,
  schemaStreams,
  type ServiceSchema,
  type ServiceLifecycle,
  type ServiceLifecycleOptions,
  type ServiceSubscription,
  type PeriodicJobOptions,
} from './service-lifecycle';
export { createPeriodicJob, housekeepingWords, type PeriodicJob, type PeriodicJobWords } from './jobs/periodic-job';
export { runService, type RunningService, type RunServiceOptions } from './run-service';
export { migrateMain, runMigrateCommand } from './cli/migrate-command';
export {
  eventsConsumed,
  httpRequestDuration,
  mailsSent,
  metricsRegistry,
  rateLimitRefusals,
  readDiskFree,
  retrievalFailureSurges,
  retrievalFailures,
} from './metrics/metrics';
export { startMetricsServer, type MetricsServer } from './metrics/metrics-server';
export { noTracing, startTracing, traceContextOf, tracesRequested, type TraceContext, type Tracing } from './tracing';
