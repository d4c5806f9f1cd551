import { ServiceUnavailableError, type Logger } from '@whistle/service-kit';

export interface DeadlineScheduler {
  /** Starts scanning: one scan now (to catch up on what fell due while no replica ran), then one per interval. */
  start(): void;
  /**
   * One scan, after any scan in progress (scans never overlap); resolves with the reminders it sent,
   * rejects if it failed (already logged).
   */
  runOnce(): Promise<number>;
  /** Stops the timer and waits for a scan in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `scan` every `intervalMs`, counted from the end of the previous scan, so a slow scan delays the next
 * instead of piling up behind it. A failure is logged with its error when it starts and once when it ends,
 * not once per tick; the next tick simply tries again. A database outage is the database's to announce (it
 * warns once per outage): the scheduler only notes it at debug level.
 */
export function createDeadlineScheduler({
  scan,
  intervalMs,
  logger,
}: {
  scan: () => Promise<number>;
  intervalMs: number;
  logger: Logger;
}): DeadlineScheduler {
  let tail: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let failing = false;

  async function scanAndLog(): Promise<number> {
    try {
      const sent = await scan();
      if (failing) {
        failing = false;
        logger.info('Deadline reminders scan again');
      }
      if (sent > 0) logger.info({ sent }, 'Deadline reminders sent');
      return sent;
    } catch (error) {
      if (failing) logger.debug({ reason: (error as Error)?.message }, 'Deadline reminder scan failed again');
      else {
        failing = true;
        if (error instanceof ServiceUnavailableError)
          logger.debug({ reason: error.message }, 'Deadline reminder scan waits for the database');
        else logger.warn({ err: error }, 'Deadline reminder scan failed; the next tick tries again');
      }
      throw error;
    }
  }

  function runOnce(): Promise<number> {
    const current = tail.then(scanAndLog, scanAndLog);
    tail = current.catch(() => undefined);
    return current;
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      // Logged inside; the timer must never leave a rejection unhandled.
      void runOnce()
        .catch(() => undefined)
        .finally(() => {
          if (running) schedule(intervalMs);
        });
    }, delayMs);
    // The scheduler alone must not keep a process (or a test run) alive.
    timer.unref();
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    runOnce,
    async stop() {
      running = false;
      clearTimeout(timer);
      await tail;
    },
  };
}
