import {
  ApiError,
  changePassword as changePasswordOnServer,
  createOwnKeys,
  addUnlockMethod,
  getCompanyKeys,
  getOwnKeys,
  grantCompanyKeyTo,
  migrateCompanyKey as postMigration,
  NoCaseAccessError,
  putRecoveryKit,
  rotateCompanyKeyPair,
  type ApiClient,
  type CaseHandle,
  type CompanyKeyStatus,
  type KeyRecipient,
  type KeyringState,
  type KeyringWorkerMaterial,
  type StaffKeyring,
} from '@whistle/api-client';
import type { CompanyKeysResponse, IncidentKeyMaterial, OwnKeysResponse, UnlockMethod } from '@whistle/contracts';
import { keyStore, type StoredKeys } from './key-store';
import { createPasskey, usePasskey } from './passkeys';

/** Loaded on the first use: the public pages (and the discloser's) never pay for Argon2id and the protocol. */
const cryptoModule = () => import('@whistle/crypto');

export interface RecoveryKitView {
  text: string;
  fingerprint: string;
  createdAt: string;
}

/** What the keyring needs to know of the signed-in person (from the session's profile). */
export interface KeyringOwner {
  userId: string;
  email: string;
  fullName: string;
  isAdmin: boolean;
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
  /** The company private keys held, by version (current, and the previous one during a rotation). */
  let companyKeys = new Map<number, CryptoKey>();
  let company: CompanyKeysResponse | undefined;
  /** The unlock key the sign-in page derived from the password: used once the session is complete (after MFA). */
  let pendingUnlockKey: CryptoKey | undefined;
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

  async function becomeUnlocked(keys: StoredKeys): Promise<void> {
    unlocked = keys;
    await keyStore.save(keys);
    await loadCompanyKeys();
    setState('unlocked');
  }

  /** Opens the company keys the person holds (admins): the grant of each version, checked against its public key. */
  async function loadCompanyKeys(): Promise<void> {
    if (!unlocked) return;
    const { importCompanyPrivateKey, openCompanyKeyGrant } = await cryptoModule();
    company = await getCompanyKeys(api);
    const opened = new Map<number, CryptoKey>();
    const versions = [
      { version: company.key_version, publicKey: company.public_key, grant: company.grant },
      ...(company.previous
        ? [
            {
              version: company.previous.key_version,
              publicKey: company.previous.public_key,
              grant: company.previous.grant,
            },
          ]
        : []),
    ];
    for (const { version, publicKey, grant } of versions) {
      if (!grant) continue;
      const secret = await openCompanyKeyGrant(unlocked.person, grant, publicKey);
      try {
        opened.set(version, await importCompanyPrivateKey(secret));
      } finally {
        secret.fill(0);
      }
    }
    companyKeys = opened;
  }

  /** Opens the sealed copy of one unlock method with its key, and remembers both for this person. */
  async function unlockWith(own: NonNullable<OwnKeysResponse['person']>, method: UnlockMethod, key: CryptoKey) {
    const { unlockPersonKeys } = await cryptoModule();
    const person = await unlockPersonKeys(key, method.sealed_private_keys, own);
    await becomeUnlocked({
      userId: owner!.userId,
      person,
      fingerprint: own.fingerprint,
      unlock: { key, methodId: method.id, sealed: method.sealed_private_keys },
    });
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
  async function setUp(key: CryptoKey, unlock: (sealed: string) => Parameters<typeof createOwnKeys>[1]['unlock']) {
    const { createPersonKeys, sealPersonSecret } = await cryptoModule();
    const { publicKeys, secret } = await createPersonKeys();
    try {
      const sealed = await sealPersonSecret(key, secret, publicKeys);
      const own = await createOwnKeys(api, { ...publicKeys, unlock: unlock(sealed) });
      const method = own.person!.unlock[0];
      await unlockWith(own.person!, method, key);
    } finally {
      secret.fill(0);
    }
  }

  /** The incident passphrase through what the person holds: their grant, else (admins) the company key of its version. */
  async function casePassphrase(keys: IncidentKeyMaterial): Promise<Uint8Array<ArrayBuffer>> {
    const crypto = await cryptoModule();
    if (keys.grant && unlocked)
      return crypto.incidentPassphraseFromGrant({
        person: unlocked.person,
        grant: keys.grant,
        credential: keys.credential,
      });
    const companyKey = companyKeys.get(keys.company_key_version);
    if (keys.company_encrypted_passphrase && companyKey)
      return crypto.incidentPassphraseFromCompany({
        companyPrivateKey: companyKey,
        company_encrypted_passphrase: keys.company_encrypted_passphrase,
      });
    throw new NoCaseAccessError();
  }

  async function companySecret(version: number) {
    if (!unlocked || !company) throw new Error('Unlock your keys first');
    const grant = version === company.key_version ? company.grant : company.previous?.grant;
    const publicKey = version === company.key_version ? company.public_key : company.previous?.public_key;
    if (!grant || !publicKey) throw new Error('You do not hold the company key');
    const { openCompanyKeyGrant } = await cryptoModule();
    return openCompanyKeyGrant(unlocked.person, grant, publicKey);
  }

  /** The recipient's keys must be those whose fingerprint the page showed: else the server named someone else's. */
  async function checkedRecipient(recipient: KeyRecipient) {
    const { personFingerprint } = await cryptoModule();
    const computed = await personFingerprint({
      public_key: recipient.publicKey,
      signing_public_key: recipient.signingPublicKey,
    });
    if (computed !== recipient.fingerprint)
      throw new Error(
        "This person's keys do not match the fingerprint shown: do not grant access, and tell your administrator",
      );
    return computed;
  }

  async function newRecoveryKit(secret: Uint8Array<ArrayBuffer>, publicKey: string) {
    const { companyFingerprint, createRecoveryKey, sealCompanyKeyForRecovery } = await cryptoModule();
    const recovery = await createRecoveryKey();
    return {
      sealed: await sealCompanyKeyForRecovery(recovery, secret, publicKey),
      view: {
        text: recovery.text,
        fingerprint: await companyFingerprint(publicKey),
        createdAt: new Date().toISOString(),
      },
    };
  }

  const keyring: StaffKeyring & {
    /** After sign-in with a password: opens the keys (or makes them, for an account from before) once MFA is done. */
    setPendingUnlockKey(key: CryptoKey | undefined): void;
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

    setPendingUnlockKey(key) {
      pendingUnlockKey = key;
    },

    async refresh(next) {
      if (!next) {
        owner = undefined;
        unlocked = undefined;
        companyKeys = new Map();
        company = undefined;
        pendingUnlockKey = undefined;
        await keyStore.clear();
        setState('unavailable');
        return;
      }
      if (owner?.userId !== next.userId) {
        unlocked = undefined;
        companyKeys = new Map();
      }
      owner = next;
      const own = await ownKeys();
      if (!own) return setState('unavailable');
      if (!own.person) {
        // An account from before, just migrated at sign-in: its keys are made at once, sealed by the password.
        if (pendingUnlockKey && own.password) {
          const key = pendingUnlockKey;
          pendingUnlockKey = undefined;
          return setUp(key, (sealed) => ({ method: 'password', sealed_private_keys: sealed }));
        }
        return setState('absent');
      }
      const person = own.person;
      if (unlocked?.person.publicKeys.public_key === person.public_key) {
        await loadCompanyKeys();
        return setState('unlocked');
      }
      const stored = await keyStore.load(next.userId);
      if (stored && stored.person.publicKeys.public_key === person.public_key) {
        unlocked = stored;
        await loadCompanyKeys();
        return setState('unlocked');
      }
      // Keys changed elsewhere (a reset): what this browser kept opens nothing of theirs any more.
      if (stored) await keyStore.clear();
      const password = person.unlock.find((method) => method.method === 'password');
      if (pendingUnlockKey && password) {
        const key = pendingUnlockKey;
        pendingUnlockKey = undefined;
        // A key left by another sign-in (or a copy sealed under a changed password) opens nothing: ask instead.
        const opened = await unlockWith(person, password, key).then(
          () => true,
          () => false,
        );
        if (opened) return;
      }
      setState('locked');
    },

    async unlockWithPassword(password) {
      const own = await ownKeys();
      const method = own?.person?.unlock.find((candidate) => candidate.method === 'password');
      if (!own?.person || !own.password || !method) throw new Error('You have no password to unlock with');
      const { deriveStaffSecrets } = await cryptoModule();
      const { unlockKey } = await deriveStaffSecrets(password, own.password.salt, own.password.kdf);
      await unlockWith(own.person, method, unlockKey);
    },

    async unlockWithPasskey() {
      const person = await requirePerson();
      const passkeys = person.unlock.filter((method) => method.method === 'passkey');
      const used = await usePasskey(
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
      const { deriveStaffSecrets } = await cryptoModule();
      await unlockWith(person, method, (await deriveStaffSecrets(passphrase, method.kdf_salt, method.kdf)).unlockKey);
    },

    async setUpWithPasskey(label) {
      const me = requireOwner();
      const passkey = await createPasskey({ id: me.userId, email: me.email, name: me.fullName });
      const { unlockKeyFromPrf } = await cryptoModule();
      await setUp(await unlockKeyFromPrf(passkey.prfOutput), (sealed) => ({
        method: 'passkey',
        credential_id: passkey.credentialId,
        prf_salt: passkey.prfSalt,
        label,
        sealed_private_keys: sealed,
      }));
    },

    async setUpWithPassphrase(passphrase) {
      const { deriveStaffSecrets, newKdfSalt } = await cryptoModule();
      const kdfSalt = newKdfSalt();
      const { unlockKey } = await deriveStaffSecrets(passphrase, kdfSalt);
      await setUp(unlockKey, (sealed) => ({
        method: 'passphrase',
        kdf: 'argon2id-v1',
        kdf_salt: kdfSalt,
        sealed_private_keys: sealed,
      }));
    },

    async addPasskey(label) {
      const me = requireOwner();
      const passkey = await createPasskey({ id: me.userId, email: me.email, name: me.fullName });
      const { sealPersonSecret, unlockKeyFromPrf } = await cryptoModule();
      const secret = await personSecret();
      try {
        const sealed = await sealPersonSecret(
          await unlockKeyFromPrf(passkey.prfOutput),
          secret,
          unlocked!.person.publicKeys,
        );
        await addUnlockMethod(api, {
          method: 'passkey',
          credential_id: passkey.credentialId,
          prf_salt: passkey.prfSalt,
          label,
          sealed_private_keys: sealed,
        });
      } finally {
        secret.fill(0);
      }
    },

    async addPassphrase(passphrase) {
      const { deriveStaffSecrets, newKdfSalt, sealPersonSecret } = await cryptoModule();
      const secret = await personSecret();
      try {
        const kdfSalt = newKdfSalt();
        const { unlockKey } = await deriveStaffSecrets(passphrase, kdfSalt);
        const sealed = await sealPersonSecret(unlockKey, secret, unlocked!.person.publicKeys);
        await addUnlockMethod(api, {
          method: 'passphrase',
          kdf: 'argon2id-v1',
          kdf_salt: kdfSalt,
          sealed_private_keys: sealed,
        });
      } finally {
        secret.fill(0);
      }
    },

    async changePassword(currentPassword, newPassword) {
      const own = await ownKeys();
      if (!own?.password) throw new Error('You have no password');
      const { deriveStaffSecrets, newKdfSalt, openPersonSecret, sealPersonSecret } = await cryptoModule();
      const kdfSalt = newKdfSalt();
      const [previous, fresh] = await Promise.all([
        deriveStaffSecrets(currentPassword, own.password.salt, own.password.kdf),
        deriveStaffSecrets(newPassword, kdfSalt),
      ]);
      const copy = own.person?.unlock.find((method) => method.method === 'password');
      let sealed: string | undefined;
      if (own.person && copy) {
        // A wrong current password opens nothing: the server would say so too, this says it without a round trip.
        const secret = await openPersonSecret(previous.unlockKey, copy.sealed_private_keys, own.person).catch(() => {
          throw new ApiError('/api/account/profile', 400, 'Bad Request', {
            message: 'Bad Request',
            errors: { current_password: ['The current password is wrong'] },
          });
        });
        try {
          sealed = await sealPersonSecret(fresh.unlockKey, secret, own.person);
        } finally {
          secret.fill(0);
        }
      }
      const answer = await changePasswordOnServer(api, {
        password: fresh.authSecret,
        kdf_salt: kdfSalt,
        current_password: previous.authSecret,
        ...(sealed ? { sealed_private_keys: sealed } : {}),
      });
      // This session's copy is now the one sealed under the new password.
      if (unlocked && sealed && copy && unlocked.unlock.methodId === copy.id)
        await becomeUnlocked({ ...unlocked, unlock: { key: fresh.unlockKey, methodId: copy.id, sealed } });
      return answer;
    },

    async lock() {
      unlocked = undefined;
      companyKeys = new Map();
      await keyStore.clear();
      if (owner) setState('locked');
    },

    async openCase(keys): Promise<CaseHandle> {
      const crypto = await cryptoModule();
      if (keys.grant && unlocked)
        return crypto.openIncidentAsGrantee({ ...keys, person: unlocked.person, grant: keys.grant });
      const companyKey = companyKeys.get(keys.company_key_version);
      if (keys.company_encrypted_passphrase && companyKey)
        return crypto.openIncidentAsCompany({
          ...keys,
          company_encrypted_passphrase: keys.company_encrypted_passphrase,
          companyPrivateKey: companyKey,
        });
      throw new NoCaseAccessError();
    },

    async grantCase(keys, recipientPublicKey) {
      const passphrase = await casePassphrase(keys);
      try {
        const { grantIncident } = await cryptoModule();
        return await grantIncident(passphrase, keys.credential.public_key, recipientPublicKey);
      } finally {
        passphrase.fill(0);
      }
    },

    async rewrapCase(keys) {
      const companyKey = companyKeys.get(keys.company_key_version);
      if (!company || !companyKey || !keys.company_encrypted_passphrase) throw new NoCaseAccessError();
      const { incidentPassphraseFromCompany, wrapToPublicKey } = await cryptoModule();
      const passphrase = await incidentPassphraseFromCompany({
        companyPrivateKey: companyKey,
        company_encrypted_passphrase: keys.company_encrypted_passphrase,
      });
      try {
        return await wrapToPublicKey(company.public_key, passphrase, 'incident-passphrase');
      } finally {
        passphrase.fill(0);
      }
    },

    workerMaterial(): KeyringWorkerMaterial | undefined {
      if (!unlocked) return undefined;
      return {
        person: { publicKey: unlocked.person.publicKeys.public_key, decryptionKey: unlocked.person.decryptionKey },
        companyKeys: Object.fromEntries(companyKeys),
      };
    },

    async companyKeyStatus(): Promise<CompanyKeyStatus> {
      const me = requireOwner();
      if (state === 'unlocked') await loadCompanyKeys();
      const keys = company ?? (await getCompanyKeys(api));
      const { companyFingerprint } = await cryptoModule();
      const held = companyKeys.has(keys.key_version);
      return {
        state: !me.isAdmin ? 'none' : keys.legacy ? 'legacy' : held ? 'held' : 'missing',
        keyVersion: keys.key_version,
        publicKey: keys.public_key,
        fingerprint: await companyFingerprint(keys.public_key),
        previousKeyVersion: keys.previous?.key_version ?? null,
        accessRequest: keys.access_request && { id: keys.access_request.id, expiresAt: keys.access_request.expires_at },
      };
    },

    async approveCompanyKey(recipient) {
      await checkedRecipient(recipient);
      const version = company?.key_version;
      if (!version) throw new Error('You do not hold the company key');
      const secret = await companySecret(version);
      try {
        const { grantCompanyKey } = await cryptoModule();
        await grantCompanyKeyTo(api, {
          user_id: recipient.userId,
          key_version: version,
          fingerprint: recipient.fingerprint,
          grant: await grantCompanyKey(secret, company!.public_key, recipient.publicKey),
          ...(recipient.requestId ? { request_id: recipient.requestId } : {}),
        });
      } finally {
        secret.fill(0);
      }
    },

    async restoreWithRecoveryKit(text) {
      if (!unlocked) throw new Error('Unlock your keys first');
      const keys = await getCompanyKeys(api);
      if (!keys.recovery) throw new Error('Only admins restore access with the recovery kit');
      const { grantCompanyKey, openCompanyKeyWithRecovery, parseRecoveryKey } = await cryptoModule();
      const recovery = await parseRecoveryKey(text);
      const secret = await openCompanyKeyWithRecovery(
        recovery,
        keys.recovery.aes_encrypted_private_key,
        keys.public_key,
      );
      try {
        await grantCompanyKeyTo(api, {
          user_id: requireOwner().userId,
          key_version: keys.key_version,
          fingerprint: unlocked.fingerprint,
          grant: await grantCompanyKey(secret, keys.public_key, unlocked.person.publicKeys.public_key),
        });
      } finally {
        secret.fill(0);
      }
      await loadCompanyKeys();
    },

    async rotateRecoveryKit() {
      const version = company?.key_version;
      if (!version) throw new Error('You do not hold the company key');
      const secret = await companySecret(version);
      try {
        const kit = await newRecoveryKit(secret, company!.public_key);
        await putRecoveryKit(api, { key_version: version, aes_encrypted_private_key: kit.sealed });
        return kit.view;
      } finally {
        secret.fill(0);
      }
    },

    async migrateCompanyKey() {
      if (!unlocked) throw new Error('Unlock your keys first');
      const keys = await getCompanyKeys(api);
      if (!keys.legacy) throw new Error('The company key is already held by its admins');
      const { grantCompanyKey, openLegacyCompanySecret } = await cryptoModule();
      const secret = await openLegacyCompanySecret(keys.legacy);
      try {
        const kit = await newRecoveryKit(secret, keys.public_key);
        await postMigration(api, {
          grant: await grantCompanyKey(secret, keys.public_key, unlocked.person.publicKeys.public_key),
          aes_encrypted_private_key: kit.sealed,
        });
        await loadCompanyKeys();
        return kit.view;
      } finally {
        secret.fill(0);
      }
    },

    async rotateCompanyKey(admins) {
      if (!unlocked || !company) throw new Error('Unlock your keys first');
      for (const admin of admins) await checkedRecipient(admin);
      const { createCompanyKeyPair, grantCompanyKey } = await cryptoModule();
      const next = await createCompanyKeyPair();
      try {
        const kit = await newRecoveryKit(next.secret, next.public_key);
        const me = requireOwner();
        const recipients = admins.some((admin) => admin.userId === me.userId)
          ? admins
          : [
              ...admins,
              {
                userId: me.userId,
                publicKey: unlocked.person.publicKeys.public_key,
                signingPublicKey: unlocked.person.publicKeys.signing_public_key,
                fingerprint: unlocked.fingerprint,
              },
            ];
        const { key_version } = await rotateCompanyKeyPair(api, {
          public_key: next.public_key,
          aes_encrypted_private_key: kit.sealed,
          grants: await Promise.all(
            recipients.map(async (admin) => ({
              user_id: admin.userId,
              fingerprint: admin.fingerprint,
              grant: await grantCompanyKey(next.secret, next.public_key, admin.publicKey),
            })),
          ),
        });
        await loadCompanyKeys();
        return { keyVersion: key_version, recoveryKit: kit.view };
      } finally {
        next.secret.fill(0);
      }
    },
  };
  return keyring;
}

export type Keyring = ReturnType<typeof createKeyring>;
