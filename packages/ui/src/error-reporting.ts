import { useEffect } from 'react';

type Capture = (error: unknown) => void;

/** Errors caught before the shell has decided (manifest read, SDK loaded): a few, sent once it has. */
const MAX_PENDING = 10;
/** undefined: not decided yet; null: error reporting is off. */
let capture: Capture | null | undefined;
const pending: unknown[] = [];

/**
 * Reports an error the page caught itself (an error boundary's): to the error-reporting SDK the shell
 * loaded, or nowhere when reporting is off. This module is a shared singleton of the page, so every remote
 * reports through the shell's one SDK client without bundling the SDK.
 */
export function reportError(error: unknown): void {
  if (capture) capture(error);
  else if (capture === undefined && pending.length < MAX_PENDING) pending.push(error);
}

/** The shell hands over its SDK's capture, or null when reporting is off; what was caught meanwhile goes now. */
export function setErrorReporter(reporter: Capture | null): void {
  capture = reporter;
  const caught = pending.splice(0);
  if (reporter) caught.forEach(reporter);
}

/**
 * Reports `error` once per error shown: a route error boundary passes `useRouteError()` (a crash, a failed
 * loader, a page not found). Not wrapped here: this entry must not import React Router, which the landing
 * page's first visit does without.
 */
export function useErrorReport(error: unknown): void {
  useEffect(() => {
    if (error !== undefined && error !== null) reportError(error);
  }, [error]);
}
