import type { Logger } from '@whistle/service-kit';
import type { RetentionRunResult } from '../../domain/retention/purge-expired-cases.use-case';
import { createPeriodicJob, type PeriodicJob } from './periodic-job';

/** The retention job on an interval; `runOnce()` resolves with the warnings sent and the cases deleted. */
export type RetentionScheduler = PeriodicJob<RetentionRunResult>;

/** Runs `run` every `intervalMs` (see createPeriodicJob), in the words of the retention job: counts only. */
export function createRetentionScheduler({
  run,
  intervalMs,
  logger,
}: {
  run: () => Promise<RetentionRunResult>;
  intervalMs: number;
  logger: Logger;
}): RetentionScheduler {
  return createPeriodicJob({
    run,
    intervalMs,
    logger,
    words: {
      done: ({ warned, deleted }) =>
        warned + deleted > 0
          ? { fields: { warned, deleted }, message: 'Retention: deletions announced and expired cases deleted' }
          : undefined,
      recovered: 'Retention job runs again',
      failed: 'Retention job failed; the next tick tries again',
      failedAgain: 'Retention job failed again',
      waitsForDatabase: 'Retention job waits for the database',
    },
  });
}
