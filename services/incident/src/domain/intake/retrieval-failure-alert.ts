import { retrievalFailureSurges, retrievalFailures, type Logger, type RateLimitCounters } from '@whistle/service-kit';

/**
 * Failed retrievals per company, counted to alert, never to refuse (docs/security.md, "Retrieval guessing"): the
 * secret code carries ~220 bits, so a distributed guesser gains nothing, while a per-company lockout let ten
 * addresses shut every discloser of a company out of follow-up. Crossing `threshold` in a window logs one warning
 * with counts only (no address, no code) and counts a surge. Shared counters on PostgreSQL, as the rate limits.
 */
export function retrievalFailureAlert({
  counters,
  threshold,
  windowMs,
  logger,
}: {
  counters: RateLimitCounters;
  threshold: number;
  windowMs: number;
  logger: Logger;
}): (urlIdentifier: string) => Promise<void> {
  const store = counters.storeFor('retrieval-failures-company');
  // The store reads only the window of express-rate-limit's options.
  store?.init?.({ windowMs } as Parameters<NonNullable<NonNullable<typeof store>['init']>>[0]);
  // This process's counts when the counters are in memory (standalone): swept once the map grows.
  const local = new Map<string, { hits: number; resetAt: number }>();
  function countLocally(key: string): number {
    const now = Date.now();
    if (local.size > 10_000) for (const [k, v] of local) if (v.resetAt <= now) local.delete(k);
    const entry = local.get(key);
    if (!entry || entry.resetAt <= now) {
      local.set(key, { hits: 1, resetAt: now + windowMs });
      return 1;
    }
    entry.hits += 1;
    return entry.hits;
  }

  return async (urlIdentifier) => {
    retrievalFailures.inc();
    const key = counters.hashKey(`company:${urlIdentifier}`);
    const hits = store ? (await store.increment(key)).totalHits : countLocally(key);
    if (hits !== threshold) return;
    retrievalFailureSurges.inc();
    logger.warn(
      { failures: hits, window_minutes: windowMs / 60_000 },
      'Surge of failed report retrievals at one company: nobody is refused for it, per-client limits still apply',
    );
  };
}
