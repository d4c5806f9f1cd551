import { useCallback, useState } from 'react';
import { useFailure } from './use-failure';

export interface ActionOptions {
  /** What is busy while the work runs (a row's uuid, one of the page's forms); one thing at a time. */
  key?: string;
  /**
   * Handles a failure the page expects (a field error, a refusal it words) and answers true; any other
   * failure is thrown while rendering, to the route's error boundary.
   */
  recover?(error: unknown): boolean;
  /** The work ends by leaving the page (a navigation): it stays busy until the page is gone. */
  leaves?: boolean;
}

export interface Action {
  /** Some work is running. */
  busy: boolean;
  /** The work of `key` is running. */
  isBusy(key: string): boolean;
  /** Runs `work`, busy meanwhile; answers whether it succeeded. */
  run(work: () => Promise<unknown>, options?: ActionOptions): Promise<boolean>;
}

const WHOLE_PAGE = 'page';

/**
 * A change the page makes (a save, a deletion, a sign-in): busy while it runs, its expected failures
 * handed back to the page, the others to the error boundary (see useFailure).
 */
export function useAction(): Action {
  const fail = useFailure();
  const [busyKey, setBusyKey] = useState<string>();
  const run = useCallback(
    async (work: () => Promise<unknown>, { key = WHOLE_PAGE, recover, leaves = false }: ActionOptions = {}) => {
      setBusyKey(key);
      try {
        await work();
        if (!leaves) setBusyKey(undefined);
        return true;
      } catch (error) {
        setBusyKey(undefined);
        if (!recover?.(error)) fail(error);
        return false;
      }
    },
    [fail],
  );
  return { busy: busyKey !== undefined, isBusy: (key) => busyKey === key, run };
}
