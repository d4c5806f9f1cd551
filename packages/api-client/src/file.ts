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
 * POST /api/incident/file/; `api` carries the discloser session token. XMLHttpRequest rather than
 * fetch: only it reports upload progress, which a 25 MB file needs.
 */
export async function uploadIncidentFile(
  api: ApiClient,
  { ciphertext, ...metadata }: FileUpload,
  options: UploadOptions = {},
) {
  const url = `${api.baseUrl}/api/incident/file/`;
  const body = uploadBody(metadata, await base64Blob(ciphertext));
  if (options.signal?.aborted) throw new RequestAbortedError();
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
      else reject(new ApiError(url, request.status, request.statusText, content));
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
