import { ServiceUnavailableError } from '../errors/errors';
import type { Logger } from '../logging/logger';
import { createRecordingLogger } from '../testing/recording-logger';
import { waitFor } from '../testing/wait-for';
import { createPeriodicJob } from './periodic-job';

/** A job in the words of deadline reminders: the runs' result is the number of reminders sent. */
function createDeadlineScheduler({
  scan,
  intervalMs,
  logger,
}: {
  scan: () => Promise<number>;
  intervalMs: number;
  logger: Logger;
}) {
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

describe('periodic job', () => {
  test('when scans are asked for while one runs, then they run one after the other, never overlapping', async () => {
    let active = 0;
    let most = 0;
    const scheduler = createDeadlineScheduler({
      scan: async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        active -= 1;
        return 1;
      },
      intervalMs: 5,
      logger: createRecordingLogger(),
    });
    scheduler.start();
    const results = await Promise.all([scheduler.runOnce(), scheduler.runOnce(), scheduler.runOnce()]);
    await scheduler.stop();
    expect(results).toEqual([1, 1, 1]);
    expect(most).toBe(1);
  });

  test('when every scan fails, then it is logged once with its error, ticks keep trying, and recovery is logged', async () => {
    const logger = createRecordingLogger();
    let failing = true;
    let scans = 0;
    const scheduler = createDeadlineScheduler({
      scan: async () => {
        scans += 1;
        if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return 0;
      },
      intervalMs: 5,
      logger,
    });
    scheduler.start();
    await waitFor(() => scans >= 5, { what: 'several ticks' });
    failing = false;
    await waitFor(() => logger.entries.some((entry) => entry.message === 'Deadline reminders scan again'), {
      what: 'recovery',
    });
    await scheduler.stop();
    const warnings = logger.entries.filter((entry) => entry.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.fields.err).toBeInstanceOf(Error);
    expect(logger.entries.filter((entry) => entry.level === 'debug').length).toBeGreaterThanOrEqual(3);
  });

  test('when the database is away, then the scheduler leaves the warning to the database and notes it at debug level', async () => {
    const logger = createRecordingLogger();
    const scheduler = createDeadlineScheduler({
      scan: async () => {
        throw new ServiceUnavailableError('PostgreSQL is unreachable; requests answer 503 until it is back');
      },
      intervalMs: 5,
      logger,
    });
    await expect(scheduler.runOnce()).rejects.toBeInstanceOf(ServiceUnavailableError);
    await scheduler.stop();
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
    expect(logger.entries.map((entry) => entry.message)).toEqual(['Deadline reminder scan waits for the database']);
  });

  test('when stopped, then no further scan starts', async () => {
    let scans = 0;
    const scheduler = createDeadlineScheduler({
      scan: async () => ++scans,
      intervalMs: 5,
      logger: createRecordingLogger(),
    });
    scheduler.start();
    await waitFor(() => scans >= 2, { what: 'two ticks' });
    await scheduler.stop();
    const after = scans;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(scans).toBe(after);
  });
});
