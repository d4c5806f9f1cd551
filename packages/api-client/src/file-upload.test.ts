/**
 * @jest-environment jsdom
 */
// The upload encodes with the browser's FileReader and sends a Blob: jsdom has both, Node's test environment not.
import { createApiClient } from './client';
import { RequestAbortedError } from './api-error';
import { FILE_UPLOAD_CONTENT_TYPE, base64Blob, uploadIncidentFile } from './file';

const uuid = '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a10';
const metadata = {
  incident_uuid: uuid,
  incident_message_uuid: null,
  file_name: 'v1.n',
  encrypted_key: 'v1.k',
  file_size: 3,
  mime_type: 'text/plain',
};

const textOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

/** The part of XMLHttpRequest an upload uses, answering when told to. */
class FakeUpload {
  opened: string[] = [];
  headers: Record<string, string> = {};
  body: Blob | undefined;
  private markSent!: () => void;
  /** Settles when `send` is called: the body is encoded before the request starts. */
  sent = new Promise<void>((resolve) => (this.markSent = resolve));
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress?: (event: ProgressEvent) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: Blob) {
    this.body = body;
    this.markSent();
  }
  responseHeaders: Record<string, string> = { 'content-type': 'application/json' };
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  abort() {
    this.onabort?.();
  }
  respond(status: number, body: unknown, headers: Record<string, string> = {}) {
    Object.assign(this.responseHeaders, headers);
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('file upload', () => {
  const realXhr = globalThis.XMLHttpRequest;
  let sent: FakeUpload;
  /** Every request made, in order (an upload sent again is a new request). */
  let requests: FakeUpload[];
  beforeEach(() => {
    sent = new FakeUpload();
    requests = [];
    let first = true;
    globalThis.XMLHttpRequest = jest.fn(() => {
      if (!first) sent = new FakeUpload();
      first = false;
      requests.push(sent);
      return sent;
    }) as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    globalThis.XMLHttpRequest = realXhr;
  });

  it('when uploading, then the ciphertext goes as base64 in a JSON body under the upload media type with the client’s Bearer, and progress is reported', async () => {
    const progress: number[] = [];
    const uploading = uploadIncidentFile(
      createApiClient({ baseUrl: '/base', getToken: () => 'session' }),
      { ...metadata, ciphertext: new Uint8Array([1, 2, 3]) },
      { onProgress: (fraction) => progress.push(fraction) },
    );
    await sent.sent;
    sent.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 } as ProgressEvent);
    sent.respond(201, { uuid });
    await expect(uploading).resolves.toEqual({ uuid });
    expect(sent.opened).toEqual(['POST', '/base/api/incident/file/']);
    expect(sent.headers).toEqual({
      Accept: 'application/json',
      Authorization: 'Bearer session',
      'Content-Type': FILE_UPLOAD_CONTENT_TYPE,
    });
    expect(JSON.parse(await textOf(sent.body!))).toEqual({ ...metadata, content: 'AQID' });
    expect(progress).toEqual([0.25]);
  });

  it('when the upload is aborted while its file is being encoded, then nothing is sent', async () => {
    const controller = new AbortController();
    const uploading = uploadIncidentFile(
      createApiClient({ getToken: () => 'session' }),
      { ...metadata, ciphertext: new Uint8Array([1, 2, 3]) },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(uploading).rejects.toBeInstanceOf(RequestAbortedError);
    expect(sent.body).toBeUndefined();
  });

  it.each([0, 1, 2, 3, 786_432, 786_433, 2 * 786_432 + 2])(
    'when encoding %i bytes (slices of 768 KiB joined), then base64 matches the standard one',
    async (size) => {
      const bytes = new Uint8Array(size).map((_, index) => (index * 7) % 251);
      await expect(base64Blob(bytes).then(textOf)).resolves.toBe(Buffer.from(bytes).toString('base64'));
    },
  );

  it('when the server answers 503 with Retry-After, then the upload is sent again after that wait, the page is told, and the retry succeeds', async () => {
    jest.useFakeTimers();
    try {
      const retries: unknown[] = [];
      const uploading = uploadIncidentFile(
        createApiClient({ getToken: () => 'session' }),
        { ...metadata, ciphertext: new Uint8Array([1, 2, 3]) },
        { onRetry: (retry) => retries.push(retry) },
      );
      await sent.sent;
      sent.respond(503, { message: 'The file store is unavailable, please try again shortly' }, { 'retry-after': '5' });
      await jest.advanceTimersByTimeAsync(4_999);
      expect(requests).toHaveLength(1);
      expect(retries).toEqual([{ attempt: 1, delayMs: 5000, status: 503 }]);
      await jest.advanceTimersByTimeAsync(1);
      await requests[1].sent;
      expect(JSON.parse(await textOf(requests[1].body!))).toEqual({ ...metadata, content: 'AQID' });
      requests[1].respond(201, { uuid });
      await expect(uploading).resolves.toEqual({ uuid });
    } finally {
      jest.useRealTimers();
    }
  });

  it('when the server keeps answering 503, then after 3 retries the 503 is the answer', async () => {
    jest.useFakeTimers();
    try {
      const uploading = uploadIncidentFile(createApiClient({ getToken: () => 'session' }), {
        ...metadata,
        ciphertext: new Uint8Array([1, 2, 3]),
      });
      const failed = expect(uploading).rejects.toMatchObject({ status: 503 });
      for (let attempt = 0; attempt < 4; attempt += 1) {
        // Each request starts after its backoff, the first once the body is encoded (FileReader: real work, which a
        // loaded machine may not finish within one advance of the fake clock): the clock moves until it is there.
        for (let step = 0; !requests[attempt] && step < 200; step += 1) await jest.advanceTimersByTimeAsync(100);
        await requests[attempt].sent;
        requests[attempt].respond(503, { message: 'Service Unavailable' });
      }
      await failed;
      expect(requests).toHaveLength(4);
    } finally {
      jest.useRealTimers();
    }
  });

  it.each([400, 409, 413, 429, 500])(
    'when the server answers %i, then the upload is not sent again',
    async (status) => {
      const uploading = uploadIncidentFile(createApiClient({ getToken: () => 'session' }), {
        ...metadata,
        ciphertext: new Uint8Array([1, 2, 3]),
      });
      await sent.sent;
      sent.respond(status, { message: 'no' });
      await expect(uploading).rejects.toMatchObject({ status });
      expect(requests).toHaveLength(1);
    },
  );
});
