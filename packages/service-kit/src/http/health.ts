import { Router } from 'express';
import { ServiceUnavailableError } from '../errors/errors';
import type { Logger } from '../logging/logger';

/** Named checks, each true when that dependency can serve now, and why each failing one fails. */
export interface ReadinessReport {
  checks: Record<string, boolean>;
  reasons: Record<string, string>;
}

export type Readiness = () => Promise<ReadinessReport>;

/**
 * A probe's failure whose message is meant for the operator reading /readyz ("The data disk has 12 MiB free,
 * under 64 MiB"). Other failures are not shown there: their messages may name hosts or carry driver details.
 */
export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
}

/** Why a probe failed, as /readyz may show it. */
function reasonOf(error: unknown): string {
  // A 503's message is written for clients already ("The file store is unavailable, ...").
  if (error instanceof NotReadyError || error instanceof ServiceUnavailableError) return error.message;
  return 'the check failed';
}

/**
 * Turns named probes into a Readiness: a probe passes when it resolves within `timeoutMs`, so a
 * hung dependency makes /readyz answer 503 instead of hanging the orchestrator's probe.
 */
export function readinessChecks(probes: Record<string, () => Promise<unknown>>, timeoutMs = 2000): Readiness {
  return async () => {
    const outcomes = await Promise.all(
      Object.entries(probes).map(async ([name, probe]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
        });
        try {
          const failure = await Promise.race([probe().then(() => undefined), timeout]);
          return [name, failure] as const;
        } catch (error) {
          return [name, reasonOf(error)] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return {
      checks: Object.fromEntries(outcomes.map(([name, failure]) => [name, failure === undefined])),
      reasons: Object.fromEntries(
        outcomes.flatMap(([name, failure]) => (failure === undefined ? [] : [[name, failure]])),
      ),
    };
  };
}

/**
 * `GET /healthz`: the process answers (liveness). `GET /readyz`: its dependencies do (readiness); when one does
 * not, `failed` names it and `reasons` says why.
 */
export function healthRouter(logger: Logger, readiness: Readiness = async () => ({ checks: {}, reasons: {} })): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    let report: ReadinessReport;
    try {
      report = await readiness();
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ message: 'Service Unavailable', failed: [], checks: {}, reasons: {} });
      return;
    }
    const { checks, reasons } = report;
    const failed = Object.keys(checks).filter((name) => !checks[name]);
    if (failed.length > 0) {
      res.status(503).json({ message: 'Service Unavailable', failed, checks, reasons });
      return;
    }
    res.json({ status: 'ok', checks });
  });
  return router;
}
