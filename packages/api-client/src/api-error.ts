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
