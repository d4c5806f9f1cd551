import {
  createApiClient,
  getOwnCompany,
  getOwnProfile,
  revokeToken,
  type ApiClient,
  type StaffSession,
  type StaffState,
} from '@whistle/api-client';
import { createKdfUpgrade, type HeldKdfUpgrade } from './kdf-upgrade';
import { createKeyring } from './keyring';
import { clearToken, readToken, writeToken } from './token-storage';

/**
 * The signed-in staff session of this page. Module-level on purpose: the person's keys are held here (the keyring:
 * non-extractable keys, in memory and in this browser's IndexedDB until sign-out), never handed to a remote as
 * bytes. Remotes reach it through the `session` custom prop (the StaffSession interface), not by importing the shell.
 */
export function createStaffSession(storage: Storage = globalThis.localStorage): StaffSession & {
  keyring: ReturnType<typeof createKeyring>;
  signIn(token: string, unlockKey?: CryptoKey): Promise<void>;
  /** A sign-in whose salt named an older kdf: upgraded in the background once the person is in and the keys open. */
  holdKdfUpgrade(upgrade: HeldKdfUpgrade | undefined): void;
  /** The background upgrade started by the last load, if any (tests wait for it). */
  kdfUpgradeSettled(): Promise<'upgraded' | 'none' | 'failed'> | undefined;
  signOut(): Promise<void>;
  isSignedIn(): boolean;
} {
  const api: ApiClient = createApiClient({ getToken: () => readToken(storage) });
  const keyring = createKeyring(api);
  const kdfUpgrade = createKdfUpgrade(api);
  let upgrading: Promise<'upgraded' | 'none' | 'failed'> | undefined;
  let loading: Promise<StaffState> | undefined;
  const listeners = new Set<(state: StaffState) => void>();

  async function load(): Promise<StaffState> {
    keyring.fetchAhead();
    const [profile, company] = await Promise.all([getOwnProfile(api), getOwnCompany(api)]);
    // The keys follow the profile: the same person keeps them across reloads, another one never sees them.
    await keyring.refresh({
      userId: profile.uuid,
      email: profile.email,
      fullName: profile.full_name,
    });
    // After the keys opened, and off the path of the first list: the derivation takes the main thread a while.
    if (kdfUpgrade.isHeld()) upgrading = whenIdle().then(() => kdfUpgrade.run());
    return { profile, company };
  }

  function staff(): Promise<StaffState> {
    if (!readToken(storage)) return Promise.reject(new Error('Not signed in'));
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  }

  async function reloadStaff(): Promise<StaffState> {
    loading = load();
    const state = await loading;
    for (const listener of listeners) listener(state);
    return state;
  }

  return {
    api,
    keyring,
    staff,
    reloadStaff,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async replaceToken(token) {
      writeToken(token, storage);
      // A new token may be MFA-complete where the old one was not (MFA just enabled): the keys may open now.
      await reloadStaff();
    },
    isSignedIn: () => Boolean(readToken(storage)),
    holdKdfUpgrade: (upgrade) => kdfUpgrade.hold(upgrade),
    kdfUpgradeSettled: () => upgrading,
    async signIn(token, unlockKey) {
      // After MFA the page passes none: the key the password step left pending is the one. Kept before the token:
      // a reload from then on finds both.
      if (unlockKey) await keyring.setPendingUnlockKey(unlockKey);
      writeToken(token, storage);
      loading = undefined;
    },
    async signOut() {
      if (readToken(storage)) {
        // The token is dropped whatever the answer: an expired token cannot be revoked and needs not be.
        await revokeToken(api).catch(() => undefined);
      }
      clearToken(storage);
      loading = undefined;
      kdfUpgrade.forget();
      await keyring.refresh(undefined);
    },
  };
}

/** Resolves when the browser is idle (a few seconds at most), so background work does not delay what is shown. */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof globalThis.requestIdleCallback === 'function')
      globalThis.requestIdleCallback(() => resolve(), { timeout: 3000 });
    else setTimeout(resolve, 0);
  });
}

/** The page's one session. */
export const staffSession = createStaffSession();
