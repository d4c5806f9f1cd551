import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { startStandalone, type StandalonePlatform } from './standalone';

/** Something being started, and how to undo it once it has. */
export interface Starting<T> {
  readonly started: Promise<T>;
  dispose(value: T): Promise<unknown>;
}

/**
 * Waits for everything in `starts`, started together; when any of them fails, disposes those that did start (and
 * those still starting, once they have) before rethrowing the first failure. `Promise.all` alone would lose the
 * others: a platform whose browser failed to launch kept running and jest never exited.
 */
export async function startAll<T extends unknown[]>(...starts: { [K in keyof T]: Starting<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(starts.map((start) => start.started));
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (!failure) return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as T;
  await Promise.allSettled(
    settled.map((result, index) => (result.status === 'fulfilled' ? starts[index]!.dispose(result.value) : undefined)),
  );
  throw failure.reason;
}

/** A standalone platform being started (`startStandalone`), disposed on failure. */
export const standalone = (options?: Parameters<typeof startStandalone>[0]): Starting<StandalonePlatform> => ({
  started: startStandalone(options),
  dispose: (platform) => platform.dispose(),
});

/** A Chromium being launched (`launchChromium`, with `extraArgs`), closed on failure. */
export const chromium = (extraArgs?: readonly string[]): Starting<Browser> => ({
  started: launchChromium(extraArgs),
  dispose: (browser) => browser.close(),
});

/** A journey's standalone platform and Chromium, started together; neither is left running when one fails. */
export const startPlatformAndBrowser = (options?: Parameters<typeof startStandalone>[0]) =>
  startAll<[StandalonePlatform, Browser]>(standalone(options), chromium());
