import type { Logger } from '@whistle/service-kit';
import { createPeriodicJob, type PeriodicJob } from './periodic-job';

/** The reporting fold on an interval; `runOnce()` resolves with the number of deltas folded. */
export type ReportingFoldScheduler = PeriodicJob<number>;

/** Runs `run` every `intervalMs` (see createPeriodicJob), in the words of the reporting fold: counts only. */
export function createReportingFoldScheduler({
  run,
  intervalMs,
  logger,
}: {
  run: () => Promise<number>;
  intervalMs: number;
  logger: Logger;
}): ReportingFoldScheduler {
  return createPeriodicJob({
    run,
    intervalMs,
    logger,
    words: {
      // Nothing to say: every run folds the cases changed since the last one (a line per interval would be noise).
      done: () => undefined,
      recovered: 'Reporting fold runs again',
      failed: 'Reporting fold failed; the next tick tries again',
      failedAgain: 'Reporting fold failed again',
      waitsForDatabase: 'Reporting fold waits for the database',
    },
  });
}
