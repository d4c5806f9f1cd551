import {
  ApiError,
  createOwnKeys,
  addUnlockMethod,
  getCompanyKeys,
  getOwnKeys,
  type ApiClient,
  type KeyringState,
  type StaffKeyring,
} from '@whistle/api-client';
import type { CompanyKeysResponse, OwnKeysResponse, UnlockMethod } from '@whistle/contracts';
import { createCaseKeyPins } from './case-key-pins';
import { createCompanyKeyHolder } from './company-key-holder';
import { changePasswordResealing } from './password-change';
import { keyStore, pendingUnlockStore, type StoredKeys } from './key-store';
import { passkeyAssertion } from './passkeys';
import { createTeamSignatures } from './team-signatures';
import { newPassphraseUnlock, newPasskeyUnlock, type NewUnlock } from './unlock-methods';
import { deriveStaffSecrets } from './staff-secrets';

/** Loaded on the first use: the public pages (and the discloser's) never pay for Argon2id and the protocol. */
const cryptoModule = () => import('@whistle/crypto');

/** What the keyring needs to know of the signed-in person (from the session's profile). */
export interface KeyringOwner {
  userId: string;
  email: string;
  fullName: string;
}

/**
 * The signed-in person's keys on this page (docs/security.md, "Keys"): their private keys, unlocked in this
 * browser and never extractable; the company private keys they hold (admins); and every operation that needs them,
 * so remotes never touch a private key. `refresh` follows the session (sign-in, reload, sign-out).
 */
export function createKeyring(api: ApiClient) {
  let state: KeyringState = 'unavailable';
  let owner: KeyringOwner | undefined;
  let unlocked: StoredKeys | undefined;
  const companyKey = createCompanyKeyHolder(api, () => unlocked);
  const caseKeyPins = createCaseKeyPins(() => unlocked);
  const teamSignatures = createTeamSignatures(api, () => unlocked);
  /**
   * The unlock key the sign-in page derived from the password: used once the session is complete (after MFA). Also
   * in IndexedDB until used (pendingUnlockStore), so a reload before then does not ask for the password again.
   */
  let pendingUnlockKey: CryptoKey | undefined;
  /** Set once a refresh has taken the pending key: two refreshes at once never both use it (keys made twice). */
  let pendingTaken = false;
  /** The person's and the company's keys, asked for together with the profile by `fetchAhead`: for the next refresh. */
  let ahead:
    { own: Promise<OwnKeysResponse | undefined>; company: Promise<CompanyKeysResponse | undefined> } | undefined;
  const listeners = new Set<(state: KeyringState) => void>();

  const setState = (next: KeyringState) => {
    state = next;
    for (const listener of listeners) listener(next);
  };

  async function ownKeys(): Promise<OwnKeysResponse | undefined> {
    try {
      return await getOwnKeys(api);
    } catch (error) {
      // MFA not complete (or set-up pending): no keys for this session yet.
      if (error instanceof ApiError && (error.status === 403 || error.status === 401)) return undefined;
      throw error;
    }
  }

  /** Unlocked only once the company key the server hands over opens and is the company's: else nothing is kept. */
  async function becomeUnlocked(
    keys: StoredKeys,
    companyKeys?: Promise<CompanyKeysResponse | undefined>,
  ): Promise<void> {
    unlocked = keys;
    try {
      await companyKey.load(companyKeys);
    } catch (error) {
      unlocked = undefined;
      companyKey.forget();
      throw error;
    }
    await keyStore.save(keys);
    setState('unlocked');
  }

  /** Opens the sealed copy of one unlock method with its key, and remembers both for this person. */
  async function unlockWith(
    own: NonNullable<OwnKeysResponse['person']>,
    method: UnlockMethod,
    key: CryptoKey,
    companyKeys?: Promise<CompanyKeysResponse | undefined>,
  ) {
    const { unlockPersonKeys } = await cryptoModule();
    const person = await unlockPersonKeys(key, method.sealed_private_keys, own);
    await becomeUnlocked(
      {
        userId: owner!.userId,
        person,
        fingerprint: own.fingerprint,
        unlock: { key, methodId: method.id, sealed: method.sealed_private_keys },
      },
      companyKeys,
    );
  }

  /** The pending unlock key for one use: this page's, or one a reload left in IndexedDB. */
  async function takePendingKey(): Promise<CryptoKey | undefined> {
    if (pendingTaken) return undefined;
    pendingTaken = true;
    return pendingUnlockKey ?? (await pendingUnlockStore.load());
  }

  /** After the pending key was used (the keys it opened are kept by then), or when it can be of no more use. */
  async function dropPendingKey(): Promise<void> {
    pendingUnlockKey = undefined;
    await pendingUnlockStore.clear();
  }

  function requireOwner(): KeyringOwner {
    if (!owner) throw new Error('Not signed in');
    return owner;
  }

  async function requirePerson(): Promise<NonNullable<OwnKeysResponse['person']>> {
    const own = await ownKeys();
    if (!own?.person) throw new Error('You have no keys yet');
    return own.person;
  }

  /** The person's secret (both private keys) from the copy opened this session, for sealing it another way. */
  async function personSecret() {
    if (!unlocked) throw new Error('Unlock your keys first');
    const { openPersonSecret } = await cryptoModule();
    return openPersonSecret(unlocked.unlock.key, unlocked.unlock.sealed, unlocked.person.publicKeys);
  }

  /** Makes new keys for a person who has none (first SSO sign-in, or an account from before), sealed under `key`. */
  async function setUp({ key, method }: NewUnlock) {
    const { createPersonKeys, sealPersonSecret } = await cryptoModule();
    const { publicKeys, secret } = await createPersonKeys();
    try {
      const sealed = await sealPersonSecret(key, secret, publicKeys);
      const own = await createOwnKeys(api, { ...publicKeys, unlock: method(sealed) });
      await unlockWith(own.person!, own.person!.unlock[0], key);
    } finally {
      secret.fill(0);
    }
  }

  /** One more way to unlock the keys opened this session: their secret sealed under it. */
  async function addUnlock({ key, method }: NewUnlock) {
    const { sealPersonSecret } = await cryptoModule();
    const secret = await personSecret();
    try {
      await addUnlockMethod(api, method(await sealPersonSecret(key, secret, unlocked!.person.publicKeys)));
    } finally {
      secret.fill(0);
    }
  }

  const keyring: StaffKeyring & {
    /**
     * After sign-in with a password: opens the keys (or makes them, for an account from before) once MFA is done.
     * Resolves once the key is kept for a reload too.
     */
    setPendingUnlockKey(key: CryptoKey | undefined): Promise<void>;
    /**
     * Asks for the person's and the company's keys now, for the next `refresh`: the session calls it with the profile
     * request, so a sign-in waits for one round trip where it waited for three in a row.
     */
    fetchAhead(): void;
    /** Follows the session: `owner` signed in (profile loaded) or undefined (signed out). */
    refresh(next: KeyringOwner | undefined): Promise<void>;
  } = {
    state: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    person: () =>
      unlocked && {
        publicKey: unlocked.person.publicKeys.public_key,
        signingPublicKey: unlocked.person.publicKeys.signing_public_key,
        fingerprint: unlocked.fingerprint,
      },

    async setPendingUnlockKey(key) {
      pendingUnlockKey = key;
      pendingTaken = false;
      await (key ? pendingUnlockStore.save(key) : pendingUnlockStore.clear());
    },

    fetchAhead() {
      // Settled here as well: a refresh that never comes (signed out meanwhile) leaves no unhandled rejection.
      ahead = { own: ownKeys(), company: getCompanyKeys(api).catch(() => undefined) };
      ahead.own.catch(() => undefined);
    },

    async refresh(next) {
      const fetched = ahead;
      ahead = undefined;
      if (!next) {
        owner = undefined;
        unlocked = undefined;
        companyKey.forget();
        await Promise.all([keyStore.clear(), dropPendingKey()]);
        setState('unavailable');
        return;
      }
      if (owner?.userId !== next.userId) {
        unlocked = undefined;
        companyKey.forget();
      }
      owner = next;
      const own = await (fetched?.own ?? ownKeys());
      if (!own) return setState('unavailable');
      if (!own.person) {
        // An account from before, just migrated at sign-in: its keys are made at once, sealed by the password.
        const key = own.password ? await takePendingKey() : undefined;
        if (key) {
          try {
            return await setUp({ key, method: (sealed) => ({ method: 'password', sealed_private_keys: sealed }) });
          } finally {
            await dropPendingKey();
          }
        }
        return setState('absent');
      }
      const person = own.person;
      if (unlocked?.person.publicKeys.public_key === person.public_key) {
        await companyKey.load(fetched?.company);
        return setState('unlocked');
      }
      const stored = await keyStore.load(next.userId);
      if (stored && stored.person.publicKeys.public_key === person.public_key) {
        unlocked = stored;
        // A reload right after the keys were kept may find the key that opened them still pending: of no more use.
        void dropPendingKey();
        await companyKey.load(fetched?.company);
        return setState('unlocked');
      }
      // Keys changed elsewhere (a reset): what this browser kept opens nothing of theirs any more.
      if (stored) await keyStore.clear();
      const password = person.unlock.find((method) => method.method === 'password');
      const key = password ? await takePendingKey() : undefined;
      if (password && key) {
        // A key left by another sign-in (or a copy sealed under a changed password) opens nothing: ask instead.
        const opened = await unlockWith(person, password, key, fetched?.company).then(
          () => true,
          () => false,
        );
        await dropPendingKey();
        if (opened) return;
      }
      setState('locked');
    },

    async unlockWithPassword(password) {
      const own = await ownKeys();
      const method = own?.person?.unlock.find((candidate) => candidate.method === 'password');
      if (!own?.person || !own.password || !method) throw new Error('You have no password to unlock with');
      const { unlockKey } = await deriveStaffSecrets(password, own.password.salt, own.password.kdf);
      await unlockWith(own.person, method, unlockKey);
    },

    async unlockWithPasskey() {
      const person = await requirePerson();
      const passkeys = person.unlock.filter((method) => method.method === 'passkey');
      const used = await passkeyAssertion(
        passkeys.map((method) => ({ credentialId: method.credential_id!, prfSalt: method.prf_salt! })),
      );
      const method = passkeys.find((candidate) => candidate.credential_id === used.credentialId);
      if (!method) throw new Error('This passkey is not one of yours');
      const { unlockKeyFromPrf } = await cryptoModule();
      await unlockWith(person, method, await unlockKeyFromPrf(used.prfOutput));
    },

    async unlockWithPassphrase(passphrase) {
      const person = await requirePerson();
      const method = person.unlock.find((candidate) => candidate.method === 'passphrase');
      if (!method?.kdf_salt || !method.kdf) throw new Error('You have no unlock passphrase');
      await unlockWith(person, method, (await deriveStaffSecrets(passphrase, method.kdf_salt, method.kdf)).unlockKey);
    },

    async setUpWithPasskey(label) {
      await setUp(await newPasskeyUnlock(requireOwner(), label));
    },

    async setUpWithPassphrase(passphrase) {
      await setUp(await newPassphraseUnlock(passphrase));
    },

    async addPasskey(label) {
      const existing = (await requirePerson()).unlock.flatMap((method) =>
        method.method === 'passkey' && method.credential_id ? [method.credential_id] : [],
      );
      await addUnlock(await newPasskeyUnlock(requireOwner(), label, existing));
    },

    async addPassphrase(passphrase) {
      await addUnlock(await newPassphraseUnlock(passphrase));
    },

    async changePassword(currentPassword, newPassword) {
      const own = await ownKeys();
      if (!own) throw new Error('Not signed in');
      const { answer, resealed } = await changePasswordResealing(api, own, currentPassword, newPassword);
      // This session's copy is now the one sealed under the new password.
      if (unlocked && resealed && unlocked.unlock.methodId === resealed.methodId)
        await becomeUnlocked({ ...unlocked, unlock: resealed });
      return answer;
    },

    async lock() {
      unlocked = undefined;
      companyKey.forget();
      await Promise.all([keyStore.clear(), dropPendingKey()]);
      if (owner) setState('locked');
    },

    openCase: companyKey.openCase,
    grantCase: companyKey.grantCase,
    pinCaseKey: caseKeyPins.pinCaseKey,
    repinCaseKey: caseKeyPins.repinCaseKey,
    workerMaterial: companyKey.workerMaterial,
    grantMaterial: () =>
      unlocked && { decryptionKey: unlocked.person.decryptionKey, publicKeys: unlocked.person.publicKeys },
    ...teamSignatures,
    async companyKeyStatus() {
      requireOwner();
      const before = companyKey.workerMaterial()?.companyPrivateKey;
      const status = await companyKey.status();
      // A key granted (or gone) since: the pages that wait for it hear of it.
      if (companyKey.workerMaterial()?.companyPrivateKey !== before) setState(state);
      return status;
    },
    approveCompanyKey: companyKey.approveCompanyKey,
    restoreWithRecoveryKit: companyKey.restoreWithRecoveryKit,
    rotateRecoveryKit: companyKey.rotateRecoveryKit,
    migrateCompanyKey: companyKey.migrateCompanyKey,
    async startCompanyKeyRotation(holders) {
      const started = await companyKey.startCompanyKeyRotation(holders);
      // Both keys held now: the pages that open cases hear of it.
      setState(state);
      return started;
    },
  };
  return keyring;
}

export type Keyring = ReturnType<typeof createKeyring>;
