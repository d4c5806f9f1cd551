import express, { Router, type Request } from 'express';
import { ERROR_REPORT_TUNNEL_PATH } from '@whistle/contracts';
import { InputError, NotAllowedError, ServiceUnavailableError } from '../errors/errors';
import type { Logger } from '../logging/logger';
import { rateLimit, type RateLimitOptions } from '../http/rate-limit';

export interface ErrorReportTunnelOptions {
  /** The browser's DSN (SENTRY_BROWSER_DSN): the only project envelopes are forwarded to. */
  dsn: string;
  logger: Logger;
  /** Largest envelope accepted; larger gets 413 (body-parser notation or bytes). */
  maxBody?: string;
  /** Envelopes one client address may send per minute. */
  perClientPerMinute?: number;
  /** Envelopes all clients together may send per minute: a flood cannot exhaust the project's quota. */
  totalPerMinute?: number;
  /** How the envelope is sent on (tests). */
  fetch?: typeof fetch;
}

/** A DSN's parts that name a project: an envelope is forwarded only when its DSN has the configured ones. */
function projectOf(dsn: string) {
  const url = new URL(dsn);
  const slash = url.pathname.lastIndexOf('/');
  return {
    origin: url.origin,
    publicKey: decodeURIComponent(url.username),
    basePath: url.pathname.slice(0, slash),
    projectId: url.pathname.slice(slash + 1),
  };
}

const sameProject = (a: ReturnType<typeof projectOf>, b: ReturnType<typeof projectOf>) =>
  a.origin === b.origin && a.publicKey === b.publicKey && a.basePath === b.basePath && a.projectId === b.projectId;

/** The DSN named in an envelope's first line (its header), or undefined when the body is no envelope. */
function envelopeDsn(body: Buffer): string | undefined {
  const end = body.indexOf(0x0a);
  try {
    const header: unknown = JSON.parse(body.subarray(0, end === -1 ? body.length : end).toString('utf8'));
    const dsn = (header as { dsn?: unknown } | null)?.dsn;
    return typeof dsn === 'string' ? dsn : undefined;
  } catch {
    return undefined;
  }
}

/** What Sentry says back that the browser SDK acts on: its rate limits. */
const FORWARDED_ANSWER_HEADERS = ['retry-after', 'x-sentry-rate-limits'];

/**
 * The same-origin endpoint the browser SDK posts its envelopes to (Sentry's `tunnel` option), so a
 * discloser's page never connects to a third party. It is no open relay: every envelope goes to the
 * configured DSN's project, and one naming another DSN is refused (403). It forwards the envelope and
 * nothing of the client: no address (no X-Forwarded-For), no header, no cookie. Bodies are capped
 * (413) and senders rate-limited (429), per client address and in total.
 */
export function errorReportTunnel({
  dsn,
  logger,
  maxBody = '512kb',
  perClientPerMinute = 60,
  totalPerMinute = 1200,
  fetch: send = fetch,
}: ErrorReportTunnelOptions): Router {
  const project = projectOf(dsn);
  const endpoint = new URL(`${project.origin}${project.basePath}/api/${project.projectId}/envelope/`);
  endpoint.searchParams.set('sentry_key', project.publicKey);
  endpoint.searchParams.set('sentry_version', '7');

  const limit = (options: Pick<RateLimitOptions, 'name' | 'limit' | 'key'>) =>
    rateLimit({ ...options, windowMs: 60_000, logger, message: 'Too many error reports, please try again later' });

  const router = Router();
  router.post(
    ERROR_REPORT_TUNNEL_PATH,
    limit({ name: 'error-reports-client', limit: perClientPerMinute }),
    limit({ name: 'error-reports-total', limit: totalPerMinute, key: () => 'all' }),
    // The browser SDK posts text/plain (no CORS preflight); any type is read as bytes and forwarded as-is.
    express.raw({ type: () => true, limit: maxBody }),
    async (req: Request, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const named = envelopeDsn(body);
      if (named === undefined) throw new InputError('Not a Sentry envelope');
      let namedProject;
      try {
        namedProject = projectOf(named);
      } catch {
        throw new InputError('Not a Sentry envelope');
      }
      if (!sameProject(namedProject, project)) throw new NotAllowedError('This tunnel forwards to its own DSN only');

      let answer: Response;
      try {
        answer = await send(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-sentry-envelope' },
          body: new Uint8Array(body),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        logger.warn({ err: error }, 'error report not forwarded: the error-reporting service is unreachable');
        throw new ServiceUnavailableError('The error-reporting service is unreachable');
      }
      await answer.body?.cancel();
      for (const name of FORWARDED_ANSWER_HEADERS) {
        const value = answer.headers.get(name);
        if (value) res.set(name, value);
      }
      res.status(answer.ok ? 200 : answer.status).json({});
    },
  );
  return router;
}
