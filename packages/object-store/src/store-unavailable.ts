import { ServiceUnavailableError, type Logger } from '@whistle/service-kit';

/** Socket failures of a store that cannot be reached or that cut the connection. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_SOCKET_PATTERN = new RegExp(`\\b(${[...UNAVAILABLE_SOCKET_CODES].join('|')})\\b`);
/** S3 error names that mean "not now" rather than "not this request". */
const UNAVAILABLE_S3_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
]);

/** Whether `error` means the S3 API cannot serve now (down, unreachable, cut, 5xx) rather than a bad request. */
export function isStoreUnavailable(error: unknown): boolean {
  // Duck-typed: socket errors can come from another realm (jest's sandbox), where `instanceof Error` fails.
  if (typeof error !== 'object' || error === null) return false;
  const failure = error as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } };
  if (typeof failure.code === 'string' && UNAVAILABLE_SOCKET_CODES.has(failure.code)) return true;
  // A socket error from another realm reaches us wrapped by the SDK's retry layer, its code only in the message.
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && (UNAVAILABLE_SOCKET_PATTERN.test(message) || /socket hang up/.test(message)))
    return true;
  if (typeof failure.name === 'string' && UNAVAILABLE_S3_NAMES.has(failure.name)) return true;
  return (failure.$metadata?.httpStatusCode ?? 0) >= 500;
}

/** Disk failures an operator fixes (space, quota, a read-only remount): the request may succeed later. */
const DISK_UNAVAILABLE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

export function isDiskUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DISK_UNAVAILABLE_CODES.has(code);
}

export const STORE_UNAVAILABLE_MESSAGE = 'The file store is unavailable, please try again shortly';
export const DISK_FULL_MESSAGE = 'The server has no room to store files right now, please try again later';

/**
 * Tracks one store's outages: a failure that means "unavailable" becomes a ServiceUnavailableError (503
 * with Retry-After), and the outage is logged once when it starts and once when it ends, not per request.
 */
export class OutageTracker {
  private available = true;

  constructor(
    private readonly lines: { down: string; up: string },
    private readonly isUnavailable: (error: unknown) => boolean,
    private readonly logger?: Logger,
    private readonly options: {
      /** The 503's message; STORE_UNAVAILABLE_MESSAGE by default. */
      answer?: string;
      /** Called once when an outage ends (after its "up" line). */
      onRecovered?: () => void;
    } = {},
  ) {}

  /** Runs `work`; a failure of the store becomes a 503, the end of an outage is logged. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      throw this.failed(error);
    }
    this.succeeded();
    return result;
  }

  succeeded(): void {
    if (this.available) return;
    this.available = true;
    this.logger?.info(this.lines.up);
    this.options.onRecovered?.();
  }

  failed(error: unknown): unknown {
    if (error instanceof ServiceUnavailableError) return error;
    if (!this.isUnavailable(error)) {
      // The store answered (a 404, a refusal): it is reachable.
      this.succeeded();
      return error;
    }
    if (this.available) {
      this.available = false;
      const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
      this.logger?.warn({ code: code ?? name, reason: message }, this.lines.down);
    }
    return new ServiceUnavailableError(this.options.answer ?? STORE_UNAVAILABLE_MESSAGE, 5, { cause: error });
  }
}
