import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit as expressRateLimit } from 'express-rate-limit';
import { TooManyRequestsError } from '../errors/errors';
import type { Logger } from '../logging/logger';
import { rateLimitDelays, rateLimitRefusals } from '../metrics/metrics';
import { processRateLimitCounters, type RateLimitCounters } from './rate-limit-counters';

export interface RateLimitOptions {
  /** Names the limiter's counters, apart from every other limiter's of the service (e.g. `login-account`). */
  name: string;
  /** Where the counts are kept: the service's shared counters in a cluster; this process's memory by default. */
  counters?: RateLimitCounters;
  /** Length of one counting window. */
  windowMs: number;
  /** Requests allowed per key and window; the next one gets 429. */
  limit: number;
  /** Who is counted: a retrieval id, an e-mail...; the client address (`clientAddress`) by default. */
  key?: (req: Request) => string;
  message?: string;
  /** Count only failed answers (status ≥ 400): login and MFA limit wrong guesses, not use. */
  skipSuccessfulRequests?: boolean;
  /**
   * Past the limit, wait this long (given how far past it the key is) and then serve the request, instead of
   * answering 429: a limit whose key a stranger can push (an account's e-mail) must slow its owner down, never
   * keep them out.
   */
  slowDownMs?: (overLimit: number) => number;
  /** Receives express-rate-limit's configuration warnings. */
  logger?: Logger;
}

// For limiters given no counters: this process's memory, keys HMAC-ed with a secret of this process.
const inProcess = processRateLimitCounters();

/**
 * The client's address as a rate-limit key; IPv6 addresses are cut to their /56 network so one
 * client cannot rotate through its own block. Behind a proxy set TRUST_PROXY, or every client
 * shares the ingress's address.
 */
export function clientAddress(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/**
 * A fixed-window limiter answering 429 JSON `{message}` with `Retry-After` (through the error
 * middleware). Privacy: the key (possibly an IP address) is HMAC-ed before it is counted, so neither
 * memory nor the shared table (`sharedRateLimitCounters`, what a cluster uses so that every replica
 * counts together) ever holds an address or an e-mail; nothing of it reaches the log.
 */
export function rateLimit({
  name,
  counters = inProcess,
  windowMs,
  limit,
  key = clientAddress,
  message = 'Too many requests, please try again later',
  skipSuccessfulRequests = false,
  slowDownMs,
  logger,
}: RateLimitOptions): RequestHandler {
  return expressRateLimit({
    windowMs,
    limit,
    skipSuccessfulRequests,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: counters.storeFor(name),
    keyGenerator: (req) => counters.hashKey(key(req)),
    handler: (req, _res, next) => {
      if (slowDownMs) {
        const used = (req as Request & { rateLimit?: { used?: number } }).rateLimit?.used ?? limit + 1;
        rateLimitDelays.inc({ limiter: name });
        setTimeout(next, slowDownMs(used - limit));
        return;
      }
      rateLimitRefusals.inc({ limiter: name });
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfterSeconds = resetTime ? (resetTime.getTime() - Date.now()) / 1000 : windowMs / 1000;
      next(new TooManyRequestsError(message, retryAfterSeconds));
    },
    ...(logger
      ? {
          logger: {
            error: (err: unknown, msg?: string) => logger.error({ err }, msg ?? 'rate limiter error'),
            warn: (err: unknown, msg?: string) => logger.warn({ err }, msg ?? 'rate limiter warning'),
          },
        }
      : {}),
  });
}
