import { ApiError, ApiNetworkError, RequestAbortedError } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Headers of this call only, beside `headers()`: e.g. a report's `Idempotency-Key`. */
  headers?: Record<string, string>;
  /** Cookies: none by default (spec §7); only the SSO code's redemption sends the browser's SSO nonce. */
  credentials?: RequestCredentials;
}

export interface ApiClientOptions {
  /** Prefix of every path; the spec's API base path is empty (same origin). */
  baseUrl?: string;
  /** Bearer token of the caller, if any: read on every call, so a renewed token is used at once. */
  getToken?: () => string | null | undefined;
}

export interface ApiClient {
  readonly baseUrl: string;
  /**
   * What every call of this client sends: `Accept`, and `Authorization: Bearer …` when the client
   * has a token. The only place a token is attached: calls that cannot go through `request`
   * (an upload that reports progress, a binary download) take their headers from here.
   */
  headers(accept?: string): Record<string, string>;
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** A response's body as the spec reads it; also for the calls that fetch themselves (downloads). */
export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('content-type') ?? '';
  // Spec §7: json or problem+json is parsed, anything else is returned as text.
  return JSON_TYPE.test(type) ? response.json() : response.text();
}

const isAbort = (error: unknown, signal?: AbortSignal) =>
  signal?.aborted || (error instanceof Error && error.name === 'AbortError');

export function createApiClient({ baseUrl = '', getToken }: ApiClientOptions = {}): ApiClient {
  function headers(accept = 'application/json'): Record<string, string> {
    const token = getToken?.();
    return token ? { Accept: accept, Authorization: `Bearer ${token}` } : { Accept: accept };
  }

  async function request<T>(
    method: HttpMethod,
    path: string,
    { body, signal, headers: extra, credentials = 'omit' }: RequestOptions = {},
  ): Promise<T> {
    const url = `${baseUrl}${path}`;
    try {
      const response = await fetch(url, {
        method,
        headers: {
          ...headers(),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...extra,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // Spec §7: credentials are not sent by default; authentication is the Bearer token only.
        credentials,
        signal,
      });
      const content = await readBody(response);
      if (!response.ok) throw new ApiError(url, response.status, response.statusText, content);
      return content as T;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (isAbort(error, signal)) throw new RequestAbortedError();
      // fetch rejects with a TypeError when no answer came (status 0); anything else (a body that is not
      // the JSON its type says) is thrown as it is.
      if (error instanceof TypeError) throw new ApiNetworkError(url, error.message, { cause: error });
      throw error;
    }
  }
  return { baseUrl, headers, request };
}

/**
 * The same API with `token` as the Bearer of every call: a discloser's auth or session token, an MFA
 * challenge id, the token of a reset link, or (for a reset request) the e-mail.
 */
export const withToken = (api: ApiClient, token: string): ApiClient =>
  createApiClient({ baseUrl: api.baseUrl, getToken: () => token });
