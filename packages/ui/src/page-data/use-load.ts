import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { useFailure } from './use-failure';

export interface LoadOptions {
  /**
   * The failures the page words itself (a 404 as "not found", a 400 as a refused filter): they come back as
   * `error`. Any other is thrown while rendering, to the route's error boundary.
   */
  shows?(error: unknown): boolean;
  /** While the answer for new dependencies comes, the last answer (or failure) stays on screen (a list's next page). */
  keepPrevious?: boolean;
}

export interface Loaded<T> {
  /** The answer for the current dependencies (or the last one, with `keepPrevious`); undefined until it comes. */
  data: T | undefined;
  /** The failure the page `shows`, until the next answer; a reload's failure keeps `data` beside it. */
  error: unknown;
  /** Neither an answer nor a failure for the current dependencies yet. */
  loading: boolean;
  /** Asks again (after a change): what is shown stays until the answer. Resolves once it is in. */
  reload(): Promise<void>;
  /** Puts what a save answered in place of the data, without asking again. */
  replace(data: T): void;
}

interface Answer<T> {
  /** The load the answer belongs to: a change of dependencies makes a new one. */
  of: unknown;
  data?: T;
  error?: unknown;
}

/**
 * What a page loads, its failure and its reload in one place: `load` runs when the page opens and whenever
 * `deps` change (the previous request is aborted); an answer for earlier dependencies is never shown as the
 * current one's, and an older request answering late never overwrites a newer one.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  { shows, keepPrevious = false }: LoadOptions = {},
): Loaded<T> {
  // The caller's dependencies: the lint checks them at the call (react-hooks additionalHooks).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const current = useCallback(load, deps);
  const fail = useFailure();
  const [answer, setAnswer] = useState<Answer<T>>();
  const latest = useRef(0);
  // The page's judgement of a failure is read when one happens, not a reason to load again.
  const showsRef = useRef(shows);
  useEffect(() => {
    showsRef.current = shows;
  });

  const request = useCallback(
    async (signal: AbortSignal) => {
      const id = ++latest.current;
      const isLatest = () => !signal.aborted && id === latest.current;
      try {
        const data = await current(signal);
        if (isLatest()) setAnswer({ of: current, data });
      } catch (error) {
        if (!isLatest()) return;
        if (!showsRef.current?.(error)) return fail(error);
        setAnswer((previous) => ({ of: current, data: previous?.of === current ? previous.data : undefined, error }));
      }
    },
    [current, fail],
  );

  useEffect(() => {
    const controller = new AbortController();
    void request(controller.signal);
    return () => controller.abort();
  }, [request]);

  const reload = useCallback(() => request(new AbortController().signal), [request]);
  const replace = useCallback(
    (data: T) => {
      // A request still on its way would put older data back.
      latest.current += 1;
      setAnswer({ of: current, data });
    },
    [current],
  );

  const answered = answer?.of === current;
  return {
    data: answered || keepPrevious ? answer?.data : undefined,
    error: answered || keepPrevious ? answer?.error : undefined,
    loading: !answered,
    reload,
    replace,
  };
}
