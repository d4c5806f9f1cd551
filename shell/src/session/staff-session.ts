import {
  ApiError,
  createApiClient,
  getOwnCompany,
  getOwnProfile,
  getStaffKeys,
  revokeToken,
  type ApiClient,
  type StaffSession,
  type StaffState,
} from '@whistle/api-client';
import { clearToken, readToken, writeToken } from './token-storage';

/**
 * The signed-in staff session of this page. Module-level on purpose: the company private key is
 * held here, in memory only (never in storage), for as long as the page lives; a reload unlocks it
 * again from GET /api/account/company/profile/keys. Remotes reach it through the `session` custom
 * prop (the StaffSession interface), not by importing the shell.
 */
export function createStaffSession(storage: Storage = globalThis.localStorage): StaffSession & {
  signIn(token: string): Promise<void>;
  signOut(): Promise<void>;
  isSignedIn(): boolean;
} {
  const api: ApiClient = createApiClient({ getToken: () => readToken(storage) });
  let privateKey: CryptoKey | undefined;
  let loading: Promise<StaffState> | undefined;
  const listeners = new Set<(state: StaffState) => void>();

  async function load(): Promise<StaffState> {
    // After a reload the key is unlocked again here: it never outlives the page.
    const [profile, company] = await Promise.all([getOwnProfile(api), getOwnCompany(api), unlockKey()]);
    return { profile, company };
  }

  /**
   * Unlocks the company private key. A 403 means MFA is required and not done in this session (or
   * must first be set up): the key stays locked and pages needing it say so; other failures propagate.
   */
  async function unlockKey(): Promise<void> {
    if (privateKey) return;
    try {
      const keys = await getStaffKeys(api);
      const { unlockCompanyPrivateKey } = await import('@whistle/crypto');
      privateKey = await unlockCompanyPrivateKey(keys);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return;
      throw error;
    }
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
    staff,
    reloadStaff,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async replaceToken(token) {
      writeToken(token, storage);
      // A new token may be MFA-complete where the old one was not (MFA just enabled).
      await unlockKey();
    },
    companyPrivateKey: () => privateKey,
    isSignedIn: () => Boolean(readToken(storage)),
    async signIn(token) {
      writeToken(token, storage);
      privateKey = undefined;
      loading = undefined;
      await unlockKey();
    },
    async signOut() {
      if (readToken(storage)) {
        // The token is dropped whatever the answer: an expired token cannot be revoked and needs not be.
        await revokeToken(api).catch(() => undefined);
      }
      clearToken(storage);
      privateKey = undefined;
      loading = undefined;
    },
  };
}

/** The page's one session. */
export const staffSession = createStaffSession();
