import { ServiceUnavailableError } from '../errors/errors';
import type { Logger } from '../logging/logger';

export interface PeriodicJob<T> {
  /** Starts running: once now (to catch up on what fell due while no replica ran), then once per interval. */
  start(): void;
  /** One run, after any run in progress (runs never overlap); resolves with its result, rejects if it failed (already logged). */
  runOnce(): Promise<T>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** What the job's log lines say: each job names its own work. */
export interface PeriodicJobWords<T> {
  /** The line after a run that did something, with its figures; undefined when there is nothing to say. */
  done(result: T): { fields: Record<string, number>; message: string } | undefined;
  /** After failures, the first run that succeeds again. */
  recovered: string;
  /** A failure that is not the database's (logged with its error, once until a run succeeds). */
  failed: string;
  /** A failure while already failing (debug). */
  failedAgain: string;
  /** The database is unreachable: the database announces its outage itself (debug). */
  waitsForDatabase: string;
}

/**
 * Runs `run` every `intervalMs`, counted from the end of the previous run, so a slow run delays the next
 * instead of piling up behind it. A failure is logged with its error when it starts and once when it ends,
 * not once per tick; the next tick simply tries again. A database outage is the database's to announce (it
 * warns once per outage): the job only notes it at debug level.
 */
export function createPeriodicJob<T>({
  run,
  intervalMs,
  logger,
  words,
}: {
  run: () => Promise<T>;
  intervalMs: number;
  logger: Logger;
  words: PeriodicJobWords<T>;
}): PeriodicJob<T> {
  let tail: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let failing = false;

  async function runAndLog(): Promise<T> {
    try {
      const result = await run();
      if (failing) {
        failing = false;
        logger.info(words.recovered);
      }
      const done = words.done(result);
      if (done) logger.info(done.fields, done.message);
      return result;
    } catch (error) {
      if (failing) logger.debug({ reason: (error as Error)?.message }, words.failedAgain);
      else {
        failing = true;
        if (error instanceof ServiceUnavailableError) logger.debug({ reason: error.message }, words.waitsForDatabase);
        else logger.warn({ err: error }, words.failed);
      }
      throw error;
    }
  }

  function runOnce(): Promise<T> {
    const current = tail.then(runAndLog, runAndLog);
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
    // The job alone must not keep a process (or a test run) alive.
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

/** The words of a housekeeping job (removing what expired) that has nothing to report when it succeeds. */
export function housekeepingWords(what: string): PeriodicJobWords<unknown> {
  return {
    done: () => undefined,
    recovered: `${what} runs again`,
    failed: `${what} failed; the next tick tries again`,
    failedAgain: `${what} failed again`,
    waitsForDatabase: `${what} waits for the database`,
  };
}
