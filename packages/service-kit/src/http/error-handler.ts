import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { ErrorBody } from '@whistle/contracts';
import {
  InputError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  WhistleError,
} from '../errors/errors';
import { inputErrorFromZod } from '../errors/input-error-from-zod';
import { noErrorReporter, type ErrorReporter } from '../error-reporting/error-reporter';
import type { Logger } from '../logging/logger';
import { routeOf } from './request-logger';

export interface HttpErrorAnswer {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Errors made by body-parser/raw-body/router (http-errors): a numeric `status` and a `type`. */
interface LibraryHttpError {
  status: number;
  type?: string;
}

function isLibraryHttpError(error: unknown): error is LibraryHttpError {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599;
}

const internalError: HttpErrorAnswer = { status: 500, body: { message: 'Internal Server Error' }, headers: {} };

/** Maps any thrown value to the JSON answer the client gets. Internal details never leave the server. */
export function httpErrorAnswer(error: unknown): HttpErrorAnswer {
  if (error instanceof ZodError) return httpErrorAnswer(inputErrorFromZod(error));
  if (error instanceof WhistleError) {
    const body: ErrorBody = { ...error.details, message: error.message };
    if (error instanceof InputError) body.errors = error.errors;
    const headers: Record<string, string> = {};
    if (
      (error instanceof TooManyRequestsError || error instanceof ServiceUnavailableError) &&
      error.retryAfterSeconds !== undefined
    ) {
      headers['Retry-After'] = String(Math.max(0, Math.ceil(error.retryAfterSeconds)));
    }
    return { status: error.status, body, headers };
  }
  if (isLibraryHttpError(error) && error.status < 500) {
    const message =
      error.type === 'entity.parse.failed' ? 'Malformed JSON body' : (STATUS_CODES[error.status] ?? 'Bad Request');
    return { status: error.status, body: { message }, headers: {} };
  }
  return internalError;
}

/** How much of a refused body is read and dropped before the connection is cut instead. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * A request refused before its body was read (too large, not authenticated...) has its answer already; the
 * rest of the body is read and dropped, so a proxy still sending it sees a normal answer rather than a broken
 * connection, up to a bound past which the connection is cut.
 */
function discardRestOfBody(req: Parameters<RequestHandler>[0]): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}

export const DATABASE_DISK_FULL_MESSAGE = 'The server has no room to store data right now, please try again later';
const DISK_FULL_LOG_INTERVAL_MS = 60_000;

/** PostgreSQL's, and PGlite's, "could not extend file: No space left on device" (SQLSTATE 53100, disk_full). */
function isDatabaseDiskFull(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '53100';
}

/** Ends the middleware chain: a route no service claimed. */
export const notFoundHandler: RequestHandler = (_req, _res, next) => next(new NotFoundError());

/**
 * The one place errors become HTTP answers: always JSON, never a stack trace. Only 5xx are logged
 * as errors (with the stack); client errors are expected and logged at debug level, and so is a 503 for a
 * dependency that is down: its adapter says so once per outage, not once per request. The errors logged as
 * errors (faults of the service) also go to the error-reporting service; what the client is meant to be
 * told (4xx, a 503 of an outage) does not.
 */
export function errorHandler(logger: Logger, reporter: ErrorReporter = noErrorReporter): ErrorRequestHandler {
  let diskFullLoggedAt = Number.NEGATIVE_INFINITY;
  return (thrown, req, res, _next) => {
    // A stalled body was answered 408 already; what its handler then saw (the body aborting) is no fault.
    if (res.locals.bodyStalled) return;
    let error: unknown = thrown;
    if (isDatabaseDiskFull(thrown)) {
      // Not a fault of the request: writes fail until space is freed, reads still work. Said once a minute.
      if (Date.now() - diskFullLoggedAt > DISK_FULL_LOG_INTERVAL_MS) {
        diskFullLoggedAt = Date.now();
        logger.warn(
          { code: '53100', reason: (thrown as Error).message },
          'The database disk is full; writes answer 503 until space is freed',
        );
      }
      error = new ServiceUnavailableError(DATABASE_DISK_FULL_MESSAGE, 30, { cause: thrown });
    }
    const answer = httpErrorAnswer(error);
    const context = { method: req.method, route: routeOf(req), status: answer.status };
    if (error instanceof ServiceUnavailableError) logger.debug(context, 'request refused: a dependency is unavailable');
    else if (answer.status >= 500) {
      logger.error({ ...context, err: error }, 'request failed');
      reporter.captureServerError(error, context);
    } else logger.debug({ ...context, error: answer.body.message }, 'request rejected');

    if (res.headersSent) {
      // Part of an answer is out: the only honest end is to cut the connection.
      req.socket.destroy();
      return;
    }
    res.status(answer.status).set(answer.headers).json(answer.body);
    if (!req.complete) discardRestOfBody(req);
  };
}
