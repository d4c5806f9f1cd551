import { Router } from 'express';
import type { Logger } from '../logging/logger';

/** Named checks, each true when that dependency can serve now. */
export type Readiness = () => Promise<Record<string, boolean>>;

/**
 * Turns named probes into a Readiness: a probe passes when it resolves within `timeoutMs`, so a
 * hung dependency makes /readyz answer 503 instead of hanging the orchestrator's probe.
 */
export function readinessChecks(probes: Record<string, () => Promise<unknown>>, timeoutMs = 2000): Readiness {
  return async () => {
    const entries = await Promise.all(
      Object.entries(probes).map(async ([name, probe]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        try {
          const passed = await Promise.race([probe().then(() => true as const), timeout]);
          return [name, passed] as const;
        } catch {
          return [name, false] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return Object.fromEntries(entries);
  };
}

/** `GET /healthz`: the process answers (liveness). `GET /readyz`: its dependencies do (readiness). */
export function healthRouter(logger: Logger, readiness: Readiness = async () => ({})): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    let checks: Record<string, boolean>;
    try {
      checks = await readiness();
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ message: 'Service Unavailable', failed: [], checks: {} });
      return;
    }
    const failed = Object.keys(checks).filter((name) => !checks[name]);
    if (failed.length > 0) {
      res.status(503).json({ message: 'Service Unavailable', failed, checks });
      return;
    }
    res.json({ status: 'ok', checks });
  });
  return router;
}
