/**
 * @jest-environment node
 */
// Node's environment (WebCrypto, the real protocol) with an IndexedDB of its own per test: what a reload keeps.
import { IDBFactory } from 'fake-indexeddb';
import { MemoryStorage, onboardedAdmin, profile, serveAuth } from '../../test/keyring-fixtures';
import { PENDING_UNLOCK_LIFETIME_MS, keyStore, pendingUnlockStore } from './key-store';
import { createStaffSession } from './staff-session';

let localStorage: MemoryStorage;
let fetchMock: jest.SpyInstance;
let posted: { url: string; body: unknown }[];
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  fetchMock = jest.spyOn(globalThis, 'fetch');
  localStorage = new MemoryStorage();
  posted = [];
});
afterEach(() => fetchMock.mockRestore());

/** What the same browser has after a reload: the same storage and IndexedDB, a new page (session) without memory. */
const reloaded = () => createStaffSession(localStorage);

describe('the pending unlock key across a reload', () => {
  it('when the page reloads between the password and the MFA code, then the keys open after the code without the password', async () => {
    const admin = await onboardedAdmin();
    serveAuth(fetchMock, posted, 'mfa-required');
    const before = createStaffSession(localStorage);
    await before.keyring.setPendingUnlockKey(admin.unlockKey);
    localStorage.setItem('token', 'mfa-challenge');

    // The reloaded MFA page: the code completes the session, and no key is handed over by the page.
    serveAuth(fetchMock, posted, admin);
    const after = reloaded();
    await after.signIn('staff-token');
    await after.staff();
    expect(after.keyring.state()).toBe('unlocked');
    // Used: gone from IndexedDB, the opened keys kept instead.
    expect(await pendingUnlockStore.load()).toBeUndefined();
    expect(await keyStore.load(profile.uuid)).toBeDefined();
  });

  it('when the page reloads after the sign-in before the keys were kept, then they open from the pending key', async () => {
    const admin = await onboardedAdmin();
    serveAuth(fetchMock, posted, admin);
    // The sign-in kept the key and the token, and the page went away before the keys opened.
    await createStaffSession(localStorage).signIn('staff-token', admin.unlockKey);
    expect(await pendingUnlockStore.load()).toBeDefined();

    const after = reloaded();
    await after.staff();
    expect(after.keyring.state()).toBe('unlocked');
    expect(await pendingUnlockStore.load()).toBeUndefined();
  });

  it('when the pending key is older than the MFA challenge lives, then it is deleted and the keys stay locked', async () => {
    const admin = await onboardedAdmin();
    await pendingUnlockStore.save(admin.unlockKey, Date.now() - PENDING_UNLOCK_LIFETIME_MS - 1);
    serveAuth(fetchMock, posted, admin);
    localStorage.setItem('token', 'staff-token');
    const after = reloaded();
    await after.staff();
    expect(after.keyring.state()).toBe('locked');
    expect(await pendingUnlockStore.load(0)).toBeUndefined();
  });

  it('when signing out before the MFA code, then the pending key is deleted', async () => {
    const admin = await onboardedAdmin();
    serveAuth(fetchMock, posted, 'mfa-required');
    const session = createStaffSession(localStorage);
    await session.keyring.setPendingUnlockKey(admin.unlockKey);
    localStorage.setItem('token', 'mfa-challenge');
    await session.signOut();
    expect(await pendingUnlockStore.load()).toBeUndefined();
  });

  it('when a pending key opens nothing (left by another sign-in), then it is deleted and the keys are locked', async () => {
    const admin = await onboardedAdmin();
    const other = await onboardedAdmin();
    await pendingUnlockStore.save(other.unlockKey);
    serveAuth(fetchMock, posted, admin);
    localStorage.setItem('token', 'staff-token');
    const after = reloaded();
    await after.staff();
    expect(after.keyring.state()).toBe('locked');
    expect(await pendingUnlockStore.load()).toBeUndefined();
  });

  it('keeps the key non-extractable: what a script on the page finds can be used, never read out', async () => {
    const admin = await onboardedAdmin();
    await pendingUnlockStore.save(admin.unlockKey);
    const kept = await pendingUnlockStore.load();
    expect(kept?.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', kept!)).rejects.toThrow();
  });
});
