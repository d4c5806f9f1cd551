import type { PersonKeys } from '@whistle/crypto';

/**
 * The unlocked keys of the signed-in person, kept in this browser's IndexedDB so a reload does not ask for the
 * password again. Only CryptoKey objects (non-extractable: a script on the page can use them, never read them
 * out), stored as the browser stores such keys. Deleted at sign-out, when the session's token is gone at page load,
 * and when the server's public key no longer matches (a reset elsewhere). docs/security.md, "Stolen device".
 */
export interface StoredKeys {
  userId: string;
  person: PersonKeys;
  fingerprint: string;
  /** The key that opened `sealed` (the copy of one unlock method), to seal the keys for another method. */
  unlock: { key: CryptoKey; methodId: string; sealed: string };
}

const DATABASE = 'whistle-keys';
const STORE = 'unlocked';
const RECORD = 'current';

function open(): Promise<IDBDatabase> | undefined {
  const factory = globalThis.indexedDB;
  if (!factory) return undefined;
  return new Promise((resolve, reject) => {
    const request = factory.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  });
}

async function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | undefined> {
  const opening = open();
  if (!opening) return undefined;
  const db = await opening;
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'));
    });
  } finally {
    db.close();
  }
}

/** Failures to keep or read the keys only mean the next page asks to unlock again: never an error for the user. */
export const keyStore = {
  async load(userId: string): Promise<StoredKeys | undefined> {
    const stored = (await run('readonly', (store) => store.get(RECORD)).catch(() => undefined)) as
      StoredKeys | undefined;
    return stored?.userId === userId ? stored : undefined;
  },
  async save(keys: StoredKeys): Promise<void> {
    await run('readwrite', (store) => store.put(keys, RECORD)).catch(() => undefined);
  },
  async clear(): Promise<void> {
    await run('readwrite', (store) => store.delete(RECORD)).catch(() => undefined);
  },
};
