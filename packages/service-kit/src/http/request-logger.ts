import type { Request, RequestHandler } from 'express';
import type { Logger } from '../logging/logger';
import { httpRequestDuration } from '../metrics/metrics';

/** The route template that answered (`/api/incident/:incident_uuid`), never the concrete path. */
export function routeOf(req: Request): string | undefined {
  const route = (req as { route?: { path?: unknown } }).route;
  return route?.path === undefined ? undefined : `${req.baseUrl}${String(route.path)}`;
}

const probePaths = new Set(['/healthz', '/readyz']);

/**
 * One line per request: method, route template, status and duration. Deliberately no IP address,
 * user agent, concrete URL (it may hold a retrieval id or another identifier), query or body:
 * a discloser must not be traceable through the logs.
 */
export function requestLogger(logger: Logger): RequestHandler {
  // The entry's fields are fixed above and none can be secret: no redaction walk on every request.
  const lines = logger.child({}, { redact: false });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const entry = {
        method: req.method,
        route: routeOf(req) ?? '(unmatched)',
        status: res.statusCode,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      // Probes arrive every few seconds; they would drown the useful lines and the latency figures.
      if (probePaths.has(req.path)) {
        lines.debug(entry, 'request');
        return;
      }
      lines.info(entry, 'request');
      httpRequestDuration.observe(
        { method: req.method, route: entry.route, status: String(entry.status) },
        entry.duration_ms / 1000,
      );
    };
    res.once('finish', log);
    res.once('close', log);
    next();
  };
}
