import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import type { ErrorReporter } from '../error-reporting/error-reporter';
import { MethodNotAllowedError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors/errors';
import type { Logger } from '../logging/logger';
import { errorHandler, notFoundHandler } from './error-handler';
import { healthRouter, type Readiness } from './health';
import { requestLogger } from './request-logger';
import { cutStalledBodies } from './stalled-body';
import { rejectUnsafeText } from './unsafe-text';

export interface HttpAppOptions {
  logger: Logger;
  /**
   * Each service's router (absolute paths), mounted in order, with the raw body types its routes read
   * themselves (see WhistleService.extraContentTypes): WhistleService instances fit.
   */
  services: readonly { readonly router: Router; readonly extraContentTypes?: readonly string[] }[];
  /** Largest JSON or form body accepted, in body-parser notation (`1mb`); larger gets 413. */
  bodyLimit?: string;
  readiness?: Readiness;
  /** Express `trust proxy` (see TRUST_PROXY). */
  trustProxy?: boolean | number | string;
  /**
   * Send Strict-Transport-Security: only when the platform is reached over HTTPS (PUBLIC_URL https://);
   * browsers ignore it over plain HTTP, where it only misleads.
   */
  strictTransportSecurity?: boolean;
  /** Receives the errors that become 500 answers; none by default. */
  errorReporter?: ErrorReporter;
  /**
   * The same-origin tunnel of the browser's error reports (`errorReportTunnel`), when SENTRY_BROWSER_DSN is
   * set: mounted before the body parsers, since it reads the envelope itself.
   */
  errorReportTunnel?: Router;
  /** How long a request body may go without a byte before 408 (see cutStalledBodies). */
  bodyIdleTimeoutMs?: number;
}

const parsedContentTypes = ['application/json', 'application/*+json', 'application/x-www-form-urlencoded'];

/** 415 for a body no parser reads, before a handler mistakes it for an empty body. */
function rejectUnknownBodies(accepted: string[]): RequestHandler {
  return (req, _res, next) => {
    const empty = req.headers['content-length'] === '0';
    // `false` means: there is a body and its type is none of these (`null`: no body at all).
    next(!empty && req.is(accepted) === false ? new UnsupportedMediaTypeError() : undefined);
  };
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Bytes of a size in body-parser notation (`512kb`, `1mb`, a byte count), as BODY_LIMIT accepts it. */
export function byteCount(size: string): number {
  const match = /^(\d+)(b|kb|mb|gb)?$/i.exec(size.trim());
  if (!match) throw new Error(`Not a size: ${size}`);
  return Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]!;
}

/**
 * 413 at once for a parsed body type whose declared length is over the limit. body-parser would read
 * such a body to its end before answering (seconds for tens of megabytes); the client gets its answer
 * before it has finished sending, and the rest is dropped (error handler).
 */
function refuseDeclaredOversize(limit: number, types: string[]): RequestHandler {
  return (req, _res, next) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    next(declared > limit && req.is(types) ? new PayloadTooLargeError() : undefined);
  };
}

/** Confidential answers must not stay in browser or proxy caches. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/**
 * The express app every service (or the standalone platform, with all services) serves: security
 * headers for an API, request logging without client details, `/healthz` and `/readyz`, JSON and
 * form bodies, the services' routes, then JSON 404 and the error middleware. Express 5 forwards
 * rejected promises from handlers to that middleware, so handlers are plain async functions.
 */
export function createHttpApp({
  logger,
  services,
  bodyLimit = '1mb',
  readiness,
  trustProxy = false,
  strictTransportSecurity = false,
  errorReporter,
  errorReportTunnel,
  bodyIdleTimeoutMs,
}: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);

  app.use(requestLogger(logger));
  app.use(cutStalledBodies(bodyIdleTimeoutMs));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
      },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity,
    }),
  );
  app.use(noStore);
  // No cross-origin use of the API is intended, so there is no CORS preflight to answer.
  app.use((req, _res, next) => next(req.method === 'OPTIONS' ? new MethodNotAllowedError() : undefined));
  app.use(healthRouter(logger, readiness));
  if (errorReportTunnel) app.use(errorReportTunnel);

  app.use(
    rejectUnknownBodies([...parsedContentTypes, ...services.flatMap((service) => service.extraContentTypes ?? [])]),
  );
  app.use(refuseDeclaredOversize(byteCount(bodyLimit), parsedContentTypes));
  app.use(express.json({ limit: bodyLimit, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ limit: bodyLimit, extended: false }));
  app.use(rejectUnsafeText);
  for (const service of services) app.use(service.router);

  app.use(notFoundHandler);
  app.use(errorHandler(logger, errorReporter));
  return app;
}
