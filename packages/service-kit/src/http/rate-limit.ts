import { createHmac, randomBytes } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit as expressRateLimit } from 'express-rate-limit';
import { TooManyRequestsError } from '../errors/errors';
import type { Logger } from '../logging/logger';

export interface RateLimitOptions {
  /** Length of one counting window. */
  windowMs: number;
  /** Requests allowed per key and window; the next one gets 429. */
  limit: number;
  /** Who is counted: a retrieval id, an e-mail...; the client address (`clientAddress`) by default. */
  key?: (req: Request) => string;
  message?: string;
  /** Count only failed answers (status ≥ 400): login and MFA limit wrong guesses, not use. */
  skipSuccessfulRequests?: boolean;
  /** Receives express-rate-limit's configuration warnings. */
  logger?: Logger;
}

// Random per process: the counters hold only HMACs of keys, unlinkable to an address after a restart.
const keySalt = randomBytes(32);

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
 * middleware). Privacy: the key (possibly an IP address) is HMAC-ed with a per-process secret
 * before it is counted, and the in-memory store forgets a key at most two windows after its last
 * request; nothing is written to disk or to the log. Counters are per process: with N replicas a
 * client gets up to N × limit, an accepted trade-off against storing addresses in a shared store.
 */
export function rateLimit({
  windowMs,
  limit,
  key = clientAddress,
  message = 'Too many requests, please try again later',
  skipSuccessfulRequests = false,
  logger,
}: RateLimitOptions): RequestHandler {
  return expressRateLimit({
    windowMs,
    limit,
    skipSuccessfulRequests,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => createHmac('sha256', keySalt).update(key(req)).digest('base64url'),
    handler: (req, _res, next) => {
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
