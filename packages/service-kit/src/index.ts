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
export { healthRouter, readinessChecks, type Readiness } from './http/health';
export { requestLogger, routeOf } from './http/request-logger';
export { clientAddress, rateLimit, type RateLimitOptions } from './http/rate-limit';
export { parseBody, parseQuery } from './http/validation';

export * from './database';
export * from './messaging';

export type { ObjectStore } from './objects/object-store';
export { DiskObjectStore } from './objects/disk-object-store';
export { S3ObjectStore, type S3ObjectStoreOptions } from './objects/s3-object-store';
export { openObjectStore } from './objects/open-object-store';
export { assertValidObjectKey } from './objects/object-key';

export type { MailMessage, Mailer } from './mail/mailer';
export { FolderMailer } from './mail/folder-mailer';
export { SmtpMailer } from './mail/smtp-mailer';
export { openMailer } from './mail/open-mailer';

export type { ServiceDependencies, WhistleService } from './service';
export {
  createServiceLifecycle,
  type ServiceLifecycle,
  type ServiceLifecycleOptions,
  type ServiceSubscription,
} from './service-lifecycle';
export { closeDependencies, openDependencies } from './dependencies';
export { runService, type RunningService, type RunServiceOptions } from './run-service';

export {
  STAFF_TOKEN_ALGORITHM,
  STAFF_TOKEN_AUDIENCE,
  STAFF_TOKEN_ISSUER,
  bearerToken,
  createStaffTokenVerifier,
  createTokenDenylist,
  requireStaff,
  staffOf,
  type RequireStaffOptions,
  type StaffPrincipal,
  type StaffTokenVerifier,
  type StaffTokenVerifierOptions,
  type TokenDenylist,
} from './tokens/staff-token';
export {
  createDiscloserTokenSigner,
  createDiscloserTokenVerifier,
  discloserTokenPrivateKey,
  discloserTokenPublicKey,
  generateDiscloserTokenKeys,
  DISCLOSER_TOKEN_ALGORITHM,
  DISCLOSER_TOKEN_AUDIENCE,
  DISCLOSER_TOKEN_ISSUER,
  DISCLOSER_TOKEN_LIFETIME_SECONDS,
  DISCLOSER_TOKEN_SCOPE,
  type DiscloserPrincipal,
  type DiscloserTokenSigner,
  type DiscloserTokenVerifier,
} from './tokens/discloser-token';
