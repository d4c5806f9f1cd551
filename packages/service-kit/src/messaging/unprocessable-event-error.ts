/**
 * Thrown by a handler when retrying cannot help (the event is not valid for this consumer): both buses
 * send the event straight to the dead letters instead of spending their retries on it.
 */
export class UnprocessableEventError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnprocessableEventError';
  }
}
