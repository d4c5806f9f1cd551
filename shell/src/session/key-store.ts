import type { CaseKeyPin, PersonKeys } from '@whistle/crypto';

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
const PENDING_STORE = 'pending';
const PINS_STORE = 'case-key-pins';
const RECORD = 'current';

/**
 * How long the unlock key a password sign-in derived waits to be used: the MFA challenge's lifetime (auth's
 * `secretLifetimes.mfa_challenge`); after it the sign-in starts again from the password anyway.
 */
export const PENDING_UNLOCK_LIFETIME_MS = 5 * 60 * 1000;

interface PendingUnlock {
  key: CryptoKey;
  expiresAt: number;
}

function open(): Promise<IDBDatabase> | undefined {
  const factory = globalThis.indexedDB;
  if (!factory) return undefined;
  return new Promise((resolve, reject) => {
    const request = factory.open(DATABASE, 3);
    request.onupgradeneeded = () => {
      for (const store of [STORE, PENDING_STORE, PINS_STORE])
        if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  });
}

async function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
  storeName = STORE,
): Promise<T | undefined> {
  const opening = open();
  if (!opening) return undefined;
  const db = await opening;
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(storeName, mode);
      const request = work(transaction.objectStore(storeName));
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

/**
 * The unlock key a password sign-in derived, between the password and the keys kept above: through the MFA step
 * and the few hundred milliseconds in which the keys open. Kept in IndexedDB (a non-extractable CryptoKey, as the
 * opened keys) so a reload in between opens the keys without deriving again; it opens nothing without the sealed
 * copy, which the server hands only to a complete session. Deleted once used, at sign-out, and when found expired.
 */
export const pendingUnlockStore = {
  async load(now = Date.now()): Promise<CryptoKey | undefined> {
    const pending = (await run('readonly', (store) => store.get(RECORD), PENDING_STORE).catch(() => undefined)) as
      PendingUnlock | undefined;
    if (!pending) return undefined;
    if (pending.expiresAt > now) return pending.key;
    await this.clear();
    return undefined;
  },
  async save(key: CryptoKey, now = Date.now()): Promise<void> {
    const pending: PendingUnlock = { key, expiresAt: now + PENDING_UNLOCK_LIFETIME_MS };
    await run('readwrite', (store) => store.put(pending, RECORD), PENDING_STORE).catch(() => undefined);
  },
  async clear(): Promise<void> {
    await run('readwrite', (store) => store.delete(RECORD), PENDING_STORE).catch(() => undefined);
  },
};

/**
 * The incident key each case had when this person first opened it here (docs/security.md, "Pinned case keys"): slot
 * to pin, both MACs under a key only their unlocked keys derive (caseKeyPinKey in packages/crypto), so unlike the
 * stores above it is kept at sign-out and lock — it tells nobody else which cases they opened. A failure to keep
 * one only means that case is pinned again on its next open.
 */
export const caseKeyPinStore = {
  /** The case's pin; null when none is kept, undefined when the store cannot be read (no IndexedDB, an error). */
  async load(slot: string): Promise<string | null | undefined> {
    if (!globalThis.indexedDB) return undefined;
    return run('readonly', (store) => store.get(slot) as IDBRequest<string | undefined>, PINS_STORE).then(
      (found) => found ?? null,
      () => undefined,
    );
  },
  async save({ slot, pin }: CaseKeyPin): Promise<void> {
    await run('readwrite', (store) => store.put(pin, slot), PINS_STORE).catch(() => undefined);
  },
};
