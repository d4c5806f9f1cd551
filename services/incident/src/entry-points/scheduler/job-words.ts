import type { PeriodicJobWords } from '@whistle/service-kit';
import type { RetentionRunResult } from '../../domain/retention/purge-expired-cases.use-case';

/** What the deadline scan says in the log: the reminders it sent. */
export const deadlineScanWords: PeriodicJobWords<number> = {
  done: (sent) => (sent > 0 ? { fields: { sent }, message: 'Deadline reminders sent' } : undefined),
  recovered: 'Deadline reminders scan again',
  failed: 'Deadline reminder scan failed; the next tick tries again',
  failedAgain: 'Deadline reminder scan failed again',
  waitsForDatabase: 'Deadline reminder scan waits for the database',
};

/** What the retention job says: counts only. */
export const retentionWords: PeriodicJobWords<RetentionRunResult> = {
  done: ({ warned, deleted }) =>
    warned + deleted > 0
      ? { fields: { warned, deleted }, message: 'Retention: deletions announced and expired cases deleted' }
      : undefined,
  recovered: 'Retention job runs again',
  failed: 'Retention job failed; the next tick tries again',
  failedAgain: 'Retention job failed again',
  waitsForDatabase: 'Retention job waits for the database',
};

/** The reporting fold says nothing when it works: every run folds the cases changed since the last one. */
export const reportingFoldWords: PeriodicJobWords<number> = {
  done: () => undefined,
  recovered: 'Reporting fold runs again',
  failed: 'Reporting fold failed; the next tick tries again',
  failedAgain: 'Reporting fold failed again',
  waitsForDatabase: 'Reporting fold waits for the database',
};
