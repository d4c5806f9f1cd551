/**
 * @jest-environment node
 */
// Node's environment: it has WebCrypto (jsdom has none) and, like jsdom, no Worker: the page fallback's case. The
// worker's case runs the real worker module in this thread behind a stand-in Worker that clones every message.
import { createApiClient } from '@whistle/api-client';
import { toBase64Url } from '@whistle/crypto';
import { passwordSignIn } from '../public-pages/keys/password-keys';
import { deriveStaffSecrets, prepareStaffSecretsWorker } from './staff-secrets';
import type { StaffSecretsMessage, StaffSecretsRequest } from './staff-secrets.worker';
import { startStaffSecretsWorker } from './staff-secrets-worker';

jest.mock('./staff-secrets-worker', () => ({ startStaffSecretsWorker: jest.fn() }));

/** The known-answer vector of packages/crypto (known-answers.test.ts, staff-secrets.test.ts), argon2id-v2. */
const SALT = toBase64Url(Uint8Array.from({ length: 16 }, (_, i) => i));
const PASSWORD = 'correct horse battery staple';
const KNOWN_AUTH_SECRET = 'v2.Uxm2WIVAW1o7MCZhbfFq7kBvmP-Dm-2UK8-LIaY4mj0';
/** 'whistle known answer' sealed by the unlock key with the IV 0xa0…0xab. */
const KNOWN_SEALED = '6c7QQqIfJe3yLr4R4I9cxaq2Sv_66D5rm16Y8iCrd4sSLUsn';
const sealedBy = async (key: CryptoKey) =>
  toBase64Url(
    new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv: Uint8Array.from({ length: 12 }, (_, i) => 0xa0 + i) },
        key,
        new TextEncoder().encode('whistle known answer'),
      ),
    ),
  );

/** Every message that crossed to or from a worker, as structured cloning hands it over. */
let crossed: unknown[];
let workersStarted: number;
let terminated: number;

/** The real worker module, run in a scope of its own: `self` is what it posts to and is posted to. */
function startWorkerInThisThread(): Worker {
  workersStarted += 1;
  const worker = {
    onmessage: null as ((event: MessageEvent<StaffSecretsMessage>) => void) | null,
    onerror: null,
    terminate: () => (terminated += 1),
    postMessage(request: StaffSecretsRequest) {
      crossed.push(structuredClone(request));
      scope.onmessage?.({ data: structuredClone(request) } as MessageEvent<StaffSecretsRequest>);
    },
  };
  const scope = {
    onmessage: null as ((event: MessageEvent<StaffSecretsRequest>) => void) | null,
    postMessage(message: StaffSecretsMessage) {
      const clone = structuredClone(message);
      crossed.push(clone);
      worker.onmessage?.({ data: clone } as MessageEvent<StaffSecretsMessage>);
    },
  };
  const globalSelf = Object.getOwnPropertyDescriptor(globalThis, 'self');
  Object.defineProperty(globalThis, 'self', { value: scope, configurable: true });
  // A fresh copy of the module per worker, as a browser runs it once in each, and synchronously, as `new Worker` is.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- import() would make the start asynchronous
  jest.isolateModules(() => require('./staff-secrets.worker'));
  if (globalSelf) Object.defineProperty(globalThis, 'self', globalSelf);
  else delete (globalThis as { self?: unknown }).self;
  return worker as unknown as Worker;
}

/** A browser's Worker constructor exists: the derivation takes the worker path. */
function withWorkers() {
  Object.defineProperty(globalThis, 'Worker', { value: class {}, configurable: true });
}

beforeEach(() => {
  jest.mocked(startStaffSecretsWorker).mockImplementation(startWorkerInThisThread);
  crossed = [];
  workersStarted = 0;
  terminated = 0;
});
afterEach(() => delete (globalThis as { Worker?: unknown }).Worker);

describe('the staff secrets derived in a Web Worker, or in the page without one', () => {
  it('when the worker and the page derive the known-answer vector, then both give its secret and its unlock key', async () => {
    withWorkers();
    const inWorker = await deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2');
    expect(workersStarted).toBe(1);
    delete (globalThis as { Worker?: unknown }).Worker;
    const inPage = await deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2');
    expect(workersStarted).toBe(1);
    for (const secrets of [inWorker, inPage]) {
      expect(secrets.authSecret).toBe(KNOWN_AUTH_SECRET);
      expect(await sealedBy(secrets.unlockKey)).toBe(KNOWN_SEALED);
      expect(secrets.unlockKey.extractable).toBe(false);
    }
  });

  it('when a password sign-in derives, then the password is in the one message to the worker and nowhere else', async () => {
    withWorkers();
    const fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
      if (path === '/api/account/token/salt') return Response.json({ kdf: 'argon2id-v2', salt: SALT }, { status: 200 });
      return new Response(null, { status: 404 });
    });
    const order: string[] = [];
    try {
      const api = createApiClient({ baseUrl: 'https://whistle.test' });
      const signIn = await passwordSignIn(api, 'ada@example.com', PASSWORD, () =>
        order.push(`meanwhile after ${crossed.length} message(s)`),
      );
      expect(signIn.body).toEqual({ username: 'ada@example.com', password: KNOWN_AUTH_SECRET });
      const requests = await Promise.all(
        fetchMock.mock.calls.map(async ([input, init]) => {
          const request = new Request(input as RequestInfo, init as RequestInit);
          return `${request.url} ${[...request.headers].join()} ${await request.text()}`;
        }),
      );
      expect(requests.join('\n')).not.toContain(PASSWORD);
    } finally {
      fetchMock.mockRestore();
    }
    const withPassword = crossed.filter((message) => JSON.stringify(message).includes(PASSWORD));
    expect(withPassword).toEqual([{ password: PASSWORD, salt: SALT, kdf: 'argon2id-v2' }]);
    expect(crossed).toHaveLength(2);
    // The next page's code runs while the worker derives (its message sent, its answer not yet in), then it ends.
    expect(order).toEqual(['meanwhile after 1 message(s)']);
    expect(terminated).toBe(1);
  });

  it('when the salt is malformed, then the worker answers the kind of error and nothing of the input', async () => {
    withWorkers();
    const failure = deriveStaffSecrets(PASSWORD, 'short', 'argon2id-v2');
    await expect(failure).rejects.toMatchObject({ name: 'CryptoFormatError', message: 'Malformed salt' });
    expect(JSON.stringify(crossed.at(-1))).not.toContain(PASSWORD);
    expect(terminated).toBe(1);
  });

  it('when the worker is refused (CSP, Trusted Types) or fails to run, then the derivation fails and does not fall back to the page', async () => {
    withWorkers();
    const refused = () => {
      throw new TypeError('Only Whistle’s own scripts may be loaded');
    };
    await expect(deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2', { startWorker: refused })).rejects.toThrow(
      TypeError,
    );
    const broken = {
      onmessage: null,
      onerror: null as ((event: Partial<ErrorEvent>) => void) | null,
      terminate: () => (terminated += 1),
      postMessage: () => broken.onerror?.({ preventDefault: () => undefined }),
    };
    await expect(
      deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2', { startWorker: () => broken as unknown as Worker }),
    ).rejects.toThrow('The password derivation could not run');
    expect(terminated).toBe(1);
  });

  it('when a worker is started ahead, then the next derivation uses it and the one after starts its own', async () => {
    withWorkers();
    prepareStaffSecretsWorker();
    prepareStaffSecretsWorker();
    expect(workersStarted).toBe(1);
    expect(crossed).toEqual([]);
    expect((await deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2')).authSecret).toBe(KNOWN_AUTH_SECRET);
    expect(workersStarted).toBe(1);
    await deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2');
    expect(workersStarted).toBe(2);
    expect(terminated).toBe(2);
  });

  it('when the worker started ahead fails before it is used, then the derivation starts a new one', async () => {
    withWorkers();
    const failing = {
      onmessage: null,
      onerror: null as (() => void) | null,
      terminate: jest.fn(),
      postMessage: jest.fn(),
    };
    prepareStaffSecretsWorker(() => failing as unknown as Worker);
    failing.onerror?.();
    expect(failing.terminate).toHaveBeenCalled();
    expect((await deriveStaffSecrets(PASSWORD, SALT, 'argon2id-v2')).authSecret).toBe(KNOWN_AUTH_SECRET);
    expect(failing.postMessage).not.toHaveBeenCalled();
    expect(workersStarted).toBe(1);
  });
});
