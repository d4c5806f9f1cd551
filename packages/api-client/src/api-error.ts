/** Spec §8: default messages of the error catalogue. */
const DEFAULT_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const describeBody = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body ?? null));

/** A non-ok answer of the API, with everything needed to show or report it. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The answer's Retry-After header, where the caller read it (an upload, to wait before sending again). */
  retryAfter?: string | null;

  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly body: unknown,
  ) {
    super(DEFAULT_MESSAGES[status] ?? `Request failed with status ${status} ${statusText}: ${describeBody(body)}`);
  }
}

/** A request cancelled through its AbortSignal. */
export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';

  constructor() {
    super('Request aborted');
  }
}

/**
 * A request that got no answer at all (network down, connection cut, offline): status 0. Still a
 * TypeError, which is what `fetch` throws for it, so code that retries on a TypeError keeps doing so.
 */
export class ApiNetworkError extends TypeError {
  override readonly name = 'ApiNetworkError';
  readonly status = 0;

  constructor(
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Spec §8: "Error reporting to an error-reporting service ignores status 0, 401, 403, 413 and 5xx". No
 * answer (0, and a request the page cancelled itself), a sign-in that is missing or refused (401, 403), a
 * body the server refuses as too large (413) and the server's own faults (5xx, which the services report
 * themselves) are not faults of the page. A 404, a 400 or a 409 is.
 */
export function isIgnoredStatus(status: number): boolean {
  return status === 0 || status === 401 || status === 403 || status === 413 || status >= 500;
}

/**
 * Whether an error thrown by this client (or any copy of it in another bundle: the name is checked, not the
 * class) is one the error-reporting service ignores; anything else is reported.
 */
export function isIgnoredByErrorReporting(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'RequestAbortedError') return true;
  const status = (error as { status?: unknown }).status;
  return (error.name === 'ApiError' || error.name === 'ApiNetworkError') && typeof status === 'number'
    ? isIgnoredStatus(status)
    : false;
}
