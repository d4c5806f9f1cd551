import type { FileUploadMetadata, IncidentFile } from '@whistle/contracts';
import { ApiError, ApiNetworkError, RequestAbortedError } from './api-error';
import type { ApiClient } from './client';

/**
 * The contracts' FILE_UPLOAD_CONTENT_TYPE (a test keeps them equal). Importing the value would
 * bring the contracts' zod schemas into every page using this client, the discloser landing too.
 */
export const FILE_UPLOAD_CONTENT_TYPE = 'application/vnd.whistle.incident-file-upload';

export interface FileUpload extends FileUploadMetadata {
  /** `encryptFile`'s ciphertext; sent as standard base64, as the file service reads it. */
  ciphertext: Uint8Array;
}

export interface UploadOptions {
  /** Fraction of the body sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Told before an upload the server could not take now (503, 408) is sent again, and how long until then. */
  onRetry?: (retry: { attempt: number; delayMs: number; status: number }) => void;
}

const parse = (text: string, type: string | null): unknown =>
  type && /json/i.test(type) && text ? JSON.parse(text) : text;

/** 768 KiB, a multiple of 3: each slice's base64 has no padding, so the slices' encodings join into the whole's. */
const BASE64_SLICE = 768 * 1024;

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * Standard base64 of `bytes`, as a Blob of ASCII text, made by the browser's own encoder (FileReader's data URL) a
 * slice at a time, each slice in a task of its own. Encoded in script (`String.fromCharCode` and `btoa`), a 25 MB file
 * was 1.2–2.1 s of one main-thread task; in one piece, FileReader and turning its 33 MB string into a Blob still took
 * about 230 ms in one task (Chromium here). By slices no task reaches 50 ms, and no 33 MB string is ever made.
 */
export async function base64Blob(bytes: Uint8Array): Promise<Blob> {
  const parts: Blob[] = [];
  for (let offset = 0; offset < bytes.length; offset += BASE64_SLICE) {
    const dataUrl = await readAsDataUrl(new Blob([bytes.subarray(offset, offset + BASE64_SLICE) as BlobPart]));
    parts.push(new Blob([dataUrl.slice(dataUrl.indexOf(',') + 1)]));
  }
  return new Blob(parts);
}

/** The upload body, `{...metadata, "content": "<base64>"}`, joined as Blobs: base64 needs no JSON escaping. */
function uploadBody(metadata: FileUploadMetadata, content: Blob): Blob {
  const withEmptyContent = JSON.stringify({ ...metadata, content: '' });
  return new Blob([withEmptyContent.slice(0, -'"}'.length), content, '"}'], { type: FILE_UPLOAD_CONTENT_TYPE });
}

/**
 * How often an upload is sent again after a 503 (the file store or the database is briefly down) or a 408 (the
 * connection stalled), and the longest wait before a retry: the server's Retry-After, else 2, 4, 8 s.
 */
export const UPLOAD_RETRIES = 3;
const MAX_RETRY_DELAY_MS = 30_000;

const retriable = (status: number) => status === 503 || status === 408;

function retryDelayMs(retryAfter: string | null, retry: number): number {
  const seconds = Number(retryAfter);
  const delay = retryAfter !== null && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 2000 * 2 ** retry;
  return Math.min(delay, MAX_RETRY_DELAY_MS);
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RequestAbortedError());
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new RequestAbortedError());
      },
      { once: true },
    );
  });
}

/**
 * POST /api/incident/file/; `api` carries the discloser session token. XMLHttpRequest rather than
 * fetch: only it reports upload progress, which a 25 MB file needs. A 503 or 408 is sent again, up to
 * UPLOAD_RETRIES times, after the server's Retry-After (else a growing backoff); `onRetry` tells the page.
 * Nothing of a refused upload is kept by the server, so sending it again cannot make a duplicate.
 */
export async function uploadIncidentFile(
  api: ApiClient,
  { ciphertext, ...metadata }: FileUpload,
  options: UploadOptions = {},
) {
  const url = `${api.baseUrl}/api/incident/file/`;
  const body = uploadBody(metadata, await base64Blob(ciphertext));
  for (let retry = 0; ; retry += 1) {
    try {
      return await sendUpload(api, url, body, options);
    } catch (error) {
      if (!(error instanceof ApiError && retriable(error.status)) || retry >= UPLOAD_RETRIES) throw error;
      const delayMs = retryDelayMs(error.retryAfter ?? null, retry);
      options.onRetry?.({ attempt: retry + 1, delayMs, status: error.status });
      await wait(delayMs, options.signal);
    }
  }
}

function sendUpload(api: ApiClient, url: string, body: Blob, options: UploadOptions): Promise<IncidentFile> {
  if (options.signal?.aborted) return Promise.reject(new RequestAbortedError());
  return new Promise<IncidentFile>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    for (const [name, value] of Object.entries(api.headers())) request.setRequestHeader(name, value);
    request.setRequestHeader('Content-Type', FILE_UPLOAD_CONTENT_TYPE);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      const content = parse(request.responseText, request.getResponseHeader('content-type'));
      if (request.status >= 200 && request.status < 300) resolve(content as IncidentFile);
      else {
        const error = new ApiError(url, request.status, request.statusText, content);
        error.retryAfter = request.getResponseHeader('retry-after');
        reject(error);
      }
    };
    request.onerror = () => reject(new ApiNetworkError(url, 'Network error'));
    request.onabort = () => reject(new RequestAbortedError());
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}

export interface DownloadedFile {
  ciphertext: Uint8Array;
  encrypted_key: string;
  encrypted_file_name: string;
}

/**
 * GET /api/incident/file/{uuid}: the ciphertext and what `decryptFile` needs besides the incident
 * key; `api` carries the discloser session token.
 */
export async function downloadIncidentFile(
  api: ApiClient,
  fileUuid: string,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  const url = `${api.baseUrl}/api/incident/file/${encodeURIComponent(fileUuid)}`;
  const response = await fetch(url, {
    headers: api.headers('application/octet-stream'),
    credentials: 'omit',
    signal,
  });
  if (!response.ok)
    throw new ApiError(
      url,
      response.status,
      response.statusText,
      parse(await response.text(), response.headers.get('content-type')),
    );
  return {
    ciphertext: new Uint8Array(await response.arrayBuffer()),
    encrypted_key: response.headers.get('x-whistle-encrypted-key') ?? '',
    encrypted_file_name: response.headers.get('x-whistle-encrypted-file-name') ?? '',
  };
}

/** GET /api/incident/file/{uuid} as JSON: the metadata, with the encrypted name (for a file list). */
export const getIncidentFile = (api: ApiClient, fileUuid: string, signal?: AbortSignal) =>
  api.request<IncidentFile>('GET', `/api/incident/file/${encodeURIComponent(fileUuid)}`, { signal });
