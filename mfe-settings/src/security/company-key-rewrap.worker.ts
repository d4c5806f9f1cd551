// The re-wrapping of a company key rotation, off the page's main thread: the cases' pages fetched, every
// passphrase opened, checked and wrapped again, each batch stored (company-key-rewrap.ts). The company keys arrive
// as non-extractable CryptoKeys, which structured cloning hands over without exposing them; the page sends the
// session's token again whenever it changes (it is renewed while the rotation runs).
import { createApiClient } from '@whistle/api-client';
import { rewrapCompanyCases, type RewrapKeys, type RewrapOutcome, type RewrapProgress } from './company-key-rewrap';

export type RewrapRequest =
  { type: 'start'; baseUrl: string; token: string; keys: RewrapKeys } | { type: 'token'; token: string };

export type RewrapMessage =
  | ({ type: 'progress' } & RewrapProgress)
  | { type: 'done'; outcome: RewrapOutcome }
  | { type: 'failed'; message: string };

/** The worker's global scope, as much as this worker uses (the webworker lib would retype every window). */
declare const self: {
  onmessage: ((event: MessageEvent<RewrapRequest>) => void) | null;
  postMessage(message: RewrapMessage): void;
};

let token = '';
self.onmessage = async ({ data }: MessageEvent<RewrapRequest>) => {
  token = data.token;
  if (data.type !== 'start') return;
  const post = (message: RewrapMessage) => self.postMessage(message);
  const api = createApiClient({ baseUrl: data.baseUrl, getToken: () => token });
  try {
    const outcome = await rewrapCompanyCases(api, data.keys, (progress) => post({ type: 'progress', ...progress }));
    post({ type: 'done', outcome });
  } catch (error) {
    // The server's sentence where there is one (a stale key version, a refused batch): it is shown to the admin.
    const body = (error as { body?: { message?: unknown } }).body;
    post({
      type: 'failed',
      message:
        typeof body?.message === 'string' ? body.message : error instanceof Error ? error.message : String(error),
    });
  }
};
