import type { DiscloserSession } from '../review/discloser-session';

/** Why a secret code did not open a report. */
export type OpenFailure = 'invalidCode' | 'tooManyAttempts' | 'unexpected';

/**
 * The outcome of the last secret code entered: the opened incident, or why it did not open with the code as typed
 * (the landing page's status form shows it again, open, with the reason). Memory only, so a reload asks for the
 * code again. Kept here rather than as the route's action data: the shell's single-spa replays each history change
 * as a popstate, which React Router treats as a new navigation that drops action data. Without crypto, so the
 * landing page can read it.
 */
let current:
  | { urlIdentifier: string; session: DiscloserSession }
  | { urlIdentifier: string; failure: OpenFailure; code: string }
  | null = null;

export const keepSession = (session: DiscloserSession) => {
  current = { urlIdentifier: session.urlIdentifier, session };
};
export const keepFailure = (urlIdentifier: string, failure: OpenFailure, code: string) => {
  current = { urlIdentifier, failure, code };
};
export const forgetOutcome = () => {
  current = null;
};
export const currentSession = (urlIdentifier: string) =>
  current?.urlIdentifier === urlIdentifier && 'session' in current ? current.session : null;
export const currentFailure = (urlIdentifier: string) =>
  current?.urlIdentifier === urlIdentifier && 'failure' in current
    ? { failure: current.failure, code: current.code }
    : null;
