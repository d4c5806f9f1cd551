/**
 * The closed set of errors domain code throws. One middleware (http/error-handler.ts) maps them to
 * HTTP once; everything else becomes a 500 whose details stay in the log.
 */
export type FieldErrors = Record<string, string[]>;

export abstract class WhistleError extends Error {
  abstract readonly status: number;
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400. `errors` maps field names to messages; the onboarding form shows them per field. */
export class InputError extends WhistleError {
  readonly status = 400;
  constructor(
    message = 'Bad Request',
    readonly errors: FieldErrors = {},
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}
export class AuthenticationError extends WhistleError {
  readonly status = 401;
  constructor(message = 'Unauthorized') {
    super(message);
  }
}
export class NotAllowedError extends WhistleError {
  readonly status = 403;
  constructor(message = 'Forbidden') {
    super(message);
  }
}
export class NotFoundError extends WhistleError {
  readonly status = 404;
  constructor(message = 'Not Found') {
    super(message);
  }
}
/** 405: the path exists but not for this method (OPTIONS: no cross-origin use of the API is intended). */
export class MethodNotAllowedError extends WhistleError {
  readonly status = 405;
  constructor(message = 'Method Not Allowed') {
    super(message);
  }
}
export class ConflictError extends WhistleError {
  readonly status = 409;
  constructor(message = 'Conflict', details?: Record<string, unknown>) {
    super(message, details);
  }
}
export class PayloadTooLargeError extends WhistleError {
  readonly status = 413;
  constructor(message = 'Payload Too Large') {
    super(message);
  }
}
/** 415: a request body in a format no parser of this app reads. */
export class UnsupportedMediaTypeError extends WhistleError {
  readonly status = 415;
  constructor(message = 'Unsupported Media Type') {
    super(message);
  }
}
export class TooManyRequestsError extends WhistleError {
  readonly status = 429;
  constructor(
    message = 'Too many requests, please try again later',
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
/**
 * 503: a dependency (the database, the broker) cannot serve right now. The client may try again after
 * `retryAfterSeconds`; nothing was changed.
 */
export class ServiceUnavailableError extends WhistleError {
  readonly status = 503;
  constructor(
    message = 'Service Unavailable',
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
/** Thrown at start-up when configuration is missing or invalid; the process exits with its message. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
