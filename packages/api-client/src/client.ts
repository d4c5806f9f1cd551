import { ApiError, RequestAbortedError } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Prefix of every path; the spec's API base path is empty (same origin). */
  baseUrl?: string;
  /** Bearer token of the signed-in user, if any. */
  getToken?: () => string | null | undefined;
}

export interface ApiClient {
  readonly baseUrl: string;
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('content-type') ?? '';
  // Spec §7: json or problem+json is parsed, anything else is returned as text.
  return JSON_TYPE.test(type) ? response.json() : response.text();
}

const isAbort = (error: unknown, signal?: AbortSignal) =>
  signal?.aborted || (error instanceof Error && error.name === 'AbortError');

export function createApiClient({ baseUrl = '', getToken }: ApiClientOptions = {}): ApiClient {
  async function request<T>(method: HttpMethod, path: string, { body, signal }: RequestOptions = {}): Promise<T> {
    const url = `${baseUrl}${path}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const token = getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      const response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        // Spec §7: credentials are not sent by default; authentication is the Bearer token only.
        credentials: 'omit',
        signal,
      });
      const content = await readBody(response);
      if (!response.ok) throw new ApiError(url, response.status, response.statusText, content);
      return content as T;
    } catch (error) {
      if (!(error instanceof ApiError) && isAbort(error, signal)) throw new RequestAbortedError();
      throw error;
    }
  }
  return { baseUrl, request };
}
