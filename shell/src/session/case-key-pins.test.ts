/**
 * @jest-environment node
 */
// Node's environment (WebCrypto, the real protocol) with an IndexedDB of its own per test: what survives a sign-out.
import { IDBFactory } from 'fake-indexeddb';
import { MemoryStorage, onboardedAdmin, serveAuth } from '../../test/keyring-fixtures';
import { createStaffSession } from './staff-session';

let localStorage: MemoryStorage;
let fetchMock: jest.SpyInstance;
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  fetchMock = jest.spyOn(globalThis, 'fetch');
  localStorage = new MemoryStorage();
});
afterEach(() => fetchMock.mockRestore());

const CASE = '0b7b1f4e-2c1d-4b9a-9f00-000000000001';
const KEY = 'v1.BHvQ-incident-key-the-case-was-made-with';
const SWAPPED = 'v1.BKz3-incident-key-a-server-made-up';

/** A sign-in of `person` in this browser (same IndexedDB), keys unlocked with their password's unlock key. */
async function signedIn(person: Awaited<ReturnType<typeof onboardedAdmin>>) {
  serveAuth(fetchMock, [], person);
  const session = createStaffSession(localStorage);
  await session.signIn('staff-token', person.unlockKey);
  await session.staff();
  expect(session.keyring.state()).toBe('unlocked');
  return session;
}

/** Everything the pin store holds, as a script of this origin (or the next person at this device) reads it. */
function storedPins(): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open('whistle-keys');
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const store = db.transaction('case-key-pins', 'readonly').objectStore('case-key-pins');
      const keys = store.getAllKeys();
      const values = store.getAll();
      values.onsuccess = () => resolve((db.close(), [...keys.result, ...values.result]));
    };
  });
}

describe('case key pins in the staff browser (trust on first use)', () => {
  it('when a case is opened again with the key first seen, then it is pinned; with another key, it is changed', async () => {
    const { keyring } = await signedIn(await onboardedAdmin());
    expect(await keyring.pinCaseKey(CASE, KEY)).toBe('pinned');
    expect(await keyring.pinCaseKey(CASE, KEY)).toBe('pinned');
    expect(await keyring.pinCaseKey(CASE, SWAPPED)).toBe('changed');
    // Seeing the other key does not make it the pin: it stays changed until acknowledged.
    expect(await keyring.pinCaseKey(CASE, SWAPPED)).toBe('changed');
    await keyring.repinCaseKey(CASE, SWAPPED);
    expect(await keyring.pinCaseKey(CASE, SWAPPED)).toBe('pinned');
    expect(await keyring.pinCaseKey(CASE, KEY)).toBe('changed');
  });

  it('when the person signs out and in again, then their pins are still there', async () => {
    const ada = await onboardedAdmin();
    const before = await signedIn(ada);
    expect(await before.keyring.pinCaseKey(CASE, KEY)).toBe('pinned');
    await before.signOut();
    expect(before.keyring.state()).toBe('unavailable');

    const after = await signedIn(ada);
    expect(await after.keyring.pinCaseKey(CASE, SWAPPED)).toBe('changed');
    expect(await after.keyring.pinCaseKey(CASE, KEY)).toBe('pinned');
  });

  it('when another person uses the same browser, then they neither see nor meet the first person’s pins', async () => {
    const ada = await signedIn(await onboardedAdmin());
    expect(await ada.keyring.pinCaseKey(CASE, KEY)).toBe('pinned');
    await ada.signOut();

    const stored = JSON.stringify(await storedPins());
    expect(stored).not.toContain(CASE);
    expect(stored).not.toContain(KEY.slice(3));

    // Their own first open of the case pins what they are handed; the first person's pin is not theirs.
    const hal = await signedIn(await onboardedAdmin());
    expect(await hal.keyring.pinCaseKey(CASE, SWAPPED)).toBe('pinned');
    expect(await storedPins()).toHaveLength(4);
  });

  it('when the store cannot be read, then nothing is compared and nothing overwritten', async () => {
    const { keyring } = await signedIn(await onboardedAdmin());
    expect(await keyring.pinCaseKey(CASE, KEY)).toBe('pinned');
    const indexedDB = globalThis.indexedDB;
    Reflect.deleteProperty(globalThis, 'indexedDB');
    try {
      expect(await keyring.pinCaseKey(CASE, SWAPPED)).toBe('pinned');
    } finally {
      globalThis.indexedDB = indexedDB;
    }
    expect(await keyring.pinCaseKey(CASE, SWAPPED)).toBe('changed');
  });

  it('when the keys are locked, then nothing is pinned', async () => {
    const { keyring } = await signedIn(await onboardedAdmin());
    await keyring.lock();
    await expect(keyring.pinCaseKey(CASE, KEY)).rejects.toThrow('Unlock your keys first');
    expect(await storedPins()).toHaveLength(0);
  });
});
