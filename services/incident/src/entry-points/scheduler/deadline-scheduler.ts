import type { Logger } from '@whistle/service-kit';
import { createPeriodicJob, type PeriodicJob } from './periodic-job';

/** The deadline reminders' scan on an interval; `runOnce()` resolves with the reminders it sent. */
export type DeadlineScheduler = PeriodicJob<number>;

/** Runs `scan` every `intervalMs` (see createPeriodicJob), in the words of deadline reminders. */
export function createDeadlineScheduler({
  scan,
  intervalMs,
  logger,
}: {
  scan: () => Promise<number>;
  intervalMs: number;
  logger: Logger;
}): DeadlineScheduler {
  return createPeriodicJob({
    run: scan,
    intervalMs,
    logger,
    words: {
      done: (sent) => (sent > 0 ? { fields: { sent }, message: 'Deadline reminders sent' } : undefined),
      recovered: 'Deadline reminders scan again',
      failed: 'Deadline reminder scan failed; the next tick tries again',
      failedAgain: 'Deadline reminder scan failed again',
      waitsForDatabase: 'Deadline reminder scan waits for the database',
    },
  });
}
