import {
  getCompanyKeys,
  grantCompanyKeyTo,
  migrateCompanyKey as postMigration,
  NoCaseAccessError,
  putRecoveryKit,
  startCompanyKeyRotation as postRotation,
  type ApiClient,
  type CaseGrantInput,
  type CaseHandle,
  type CompanyKeyStatus,
  type KeyRecipient,
  type KeyringWorkerMaterial,
  type StaffKeyring,
} from '@whistle/api-client';
import type { CompanyKeysResponse, IncidentKeyMaterial } from '@whistle/contracts';
import type { RecoveryKitView } from '@whistle/ui/staff';
import type { StoredKeys } from './key-store';

/** Loaded on the first use: the public pages (and the discloser's) never pay for the protocol. */
const cryptoModule = () => import('@whistle/crypto');

/** The recipient's keys must be those whose fingerprint the page showed: else the server named someone else's. */
export async function checkedRecipient(recipient: KeyRecipient) {
  const { personFingerprint } = await cryptoModule();
  const computed = await personFingerprint({
    public_key: recipient.publicKey,
    signing_public_key: recipient.signingPublicKey,
  });
  if (computed !== recipient.fingerprint)
    throw new Error(
      "This person's keys do not match the fingerprint shown: do not grant access, and tell your administrator",
    );
}

/**
 * The company private key as the unlocked person holds it (docs/security.md, "Keys"): opened from their grant (or,
 * for a company from before, the old way) into a non-extractable CryptoKey, and every operation that needs it —
 * opening cases, granting it to a team member, the recovery kit, the migration. `person()` is the keyring's
 * unlocked keys, undefined while locked.
 */
export function createCompanyKeyHolder(api: ApiClient, person: () => StoredKeys | undefined) {
  let company: CompanyKeysResponse | undefined;
  let companyKey: CryptoKey | undefined;
  // During a rotation: the key being replaced, which still wraps the cases not yet re-wrapped.
  let previousKey: CryptoKey | undefined;

  function requirePerson(): StoredKeys {
    const keys = person();
    if (!keys) throw new Error('Unlock your keys first');
    return keys;
  }

  async function companySecret() {
    const keys = requirePerson();
    if (!company?.grant) throw new Error('You do not hold the company key');
    const { openCompanyKeyGrant } = await cryptoModule();
    return openCompanyKeyGrant(keys.person, company.grant, company.public_key);
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
      } satisfies RecoveryKitView,
    };
  }

  const holder = {
    /**
     * Opens the company key the person holds: their grant, checked against the company's public key; or, for a
     * company whose key is still kept the old way (until an admin moves it), that way. Throws when what the server
     * hands over is not the company's key. `fetched`: the company's keys already asked for (see the keyring's
     * `fetchAhead`); asked again when that request failed.
     */
    async load(fetched?: Promise<CompanyKeysResponse | undefined>): Promise<void> {
      const keys = person();
      if (!keys) return;
      const { importCompanyPrivateKey, openCompanyKeyGrant, openLegacyCompanySecret } = await cryptoModule();
      company = (await fetched) ?? (await getCompanyKeys(api));
      const secret = company.grant
        ? await openCompanyKeyGrant(keys.person, company.grant, company.public_key)
        : company.legacy
          ? await openLegacyCompanySecret(company.legacy)
          : undefined;
      try {
        companyKey = secret && (await importCompanyPrivateKey(secret));
      } finally {
        secret?.fill(0);
      }
      const rotation = company.rotation;
      const previous = rotation?.previous_grant
        ? await openCompanyKeyGrant(keys.person, rotation.previous_grant, rotation.previous_public_key)
        : undefined;
      try {
        previousKey = previous ? await importCompanyPrivateKey(previous) : undefined;
      } finally {
        previous?.fill(0);
      }
    },

    forget(): void {
      company = undefined;
      companyKey = undefined;
      previousKey = undefined;
    },

    /**
     * Opens a case with the person's own per-case grant (handlers, reviewers), checked against the case; else, or if
     * it does not open, with the company key (admins). Neither: NoCaseAccessError.
     */
    async openCase(keys: IncidentKeyMaterial): Promise<CaseHandle> {
      const me = person();
      if (!me) throw new NoCaseAccessError();
      const { openIncidentAsCompany, openIncidentWithGrant } = await cryptoModule();
      // No company wrapping: its discloser kept an admin out, so only a per-case grant opens it.
      const wrapping = keys.company_encrypted_passphrase;
      if (keys.my_grant) {
        try {
          return await openIncidentWithGrant({ ...keys, grant: keys.my_grant.wrapped_passphrase, person: me.person });
        } catch (error) {
          if (!companyKey || wrapping === null) throw error;
        }
      }
      if (!companyKey || wrapping === null) throw new NoCaseAccessError();
      return openIncidentAsCompany({
        ...keys,
        company_encrypted_passphrase: wrapping,
        companyPrivateKey: companyKey,
        ...(previousKey ? { previousCompanyPrivateKey: previousKey } : {}),
      });
    },

    /**
     * Per-case grants made here on assignment (docs/security.md, "Per-case grants"): the case's passphrase opened
     * with the company key (or, for a case no company key wraps, one's own grant of it) and checked against the case (a value that does not open its sealed key is refused), then
     * wrapped to each recipient — whose keys must be those of the fingerprint the page showed.
     */
    async grantCase(keys: IncidentKeyMaterial, recipients: readonly KeyRecipient[]): Promise<CaseGrantInput[]> {
      const me = person();
      const wrapping = keys.company_encrypted_passphrase;
      // No company wrapping (its discloser kept an admin out): only one's own grant of it can be granted on.
      if (!me || (wrapping === null ? !keys.my_grant : !companyKey)) throw new NoCaseAccessError();
      for (const recipient of recipients) await checkedRecipient(recipient);
      const { grantIncidentPassphrase, regrantIncidentPassphrase } = await cryptoModule();
      const recipientPublicKeys = recipients.map((recipient) => recipient.publicKey);
      const wrapped =
        wrapping === null
          ? await regrantIncidentPassphrase({
              ...keys,
              grant: keys.my_grant!.wrapped_passphrase,
              person: me.person,
              recipientPublicKeys,
            })
          : await grantIncidentPassphrase({
              ...keys,
              company_encrypted_passphrase: wrapping,
              companyPrivateKeys: [companyKey!, ...(previousKey ? [previousKey] : [])],
              recipientPublicKeys,
            });
      return recipients.map((recipient, index) => ({
        user_id: recipient.userId,
        fingerprint: recipient.fingerprint,
        wrapped_passphrase: wrapped[index]!,
      }));
    },

    workerMaterial(): KeyringWorkerMaterial | undefined {
      if (!person() || !companyKey) return undefined;
      return { companyPrivateKey: companyKey, ...(previousKey ? { previousCompanyPrivateKey: previousKey } : {}) };
    },

    async status(): Promise<CompanyKeyStatus> {
      if (person()) await holder.load();
      const keys = company ?? (await getCompanyKeys(api));
      const { companyFingerprint } = await cryptoModule();
      return {
        state: keys.legacy ? 'legacy' : keys.grant && companyKey ? 'held' : 'missing',
        keyVersion: keys.key_version,
        publicKey: keys.public_key,
        fingerprint: await companyFingerprint(keys.public_key),
        accessRequest: keys.access_request && { id: keys.access_request.id, expiresAt: keys.access_request.expires_at },
        rotation: keys.rotation && {
          previousKeyVersion: keys.rotation.previous_key_version,
          startedAt: keys.rotation.started_at,
          previousHeld: previousKey !== undefined,
        },
      };
    },

    async approveCompanyKey(recipient: KeyRecipient & { requestId?: string }): Promise<void> {
      await checkedRecipient(recipient);
      const secret = await companySecret();
      try {
        const { grantCompanyKey } = await cryptoModule();
        await grantCompanyKeyTo(api, {
          user_id: recipient.userId,
          key_version: company!.key_version,
          fingerprint: recipient.fingerprint,
          grant: await grantCompanyKey(secret, company!.public_key, recipient.publicKey),
          ...(recipient.requestId ? { request_id: recipient.requestId } : {}),
        });
      } finally {
        secret.fill(0);
      }
    },

    async restoreWithRecoveryKit(text: string): Promise<void> {
      const me = requirePerson();
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
          user_id: me.userId,
          key_version: keys.key_version,
          fingerprint: me.fingerprint,
          grant: await grantCompanyKey(secret, keys.public_key, me.person.publicKeys.public_key),
        });
      } finally {
        secret.fill(0);
      }
      await holder.load();
    },

    async rotateRecoveryKit(): Promise<RecoveryKitView> {
      const secret = await companySecret();
      try {
        const kit = await newRecoveryKit(secret, company!.public_key);
        await putRecoveryKit(api, { key_version: company!.key_version, aes_encrypted_private_key: kit.sealed });
        return kit.view;
      } finally {
        secret.fill(0);
      }
    },

    async migrateCompanyKey(): Promise<RecoveryKitView> {
      const me = requirePerson();
      const keys = await getCompanyKeys(api);
      if (!keys.legacy) throw new Error('The company key is already held by its admins');
      const { grantCompanyKey, openLegacyCompanySecret } = await cryptoModule();
      const secret = await openLegacyCompanySecret(keys.legacy);
      try {
        const kit = await newRecoveryKit(secret, keys.public_key);
        await postMigration(api, {
          grant: await grantCompanyKey(secret, keys.public_key, me.person.publicKeys.public_key),
          aes_encrypted_private_key: kit.sealed,
        });
        await holder.load();
        return kit.view;
      } finally {
        secret.fill(0);
      }
    },

    /**
     * A new company key pair, made here: wrapped to every holder after their keys are checked against the
     * fingerprints the page showed, sealed for a new recovery kit. The old key stays held until the rotation
     * completes; this browser loads both.
     */
    async startCompanyKeyRotation(holders: KeyRecipient[]) {
      requirePerson();
      if (!company?.grant || !companyKey) throw new Error('You do not hold the company key');
      for (const recipient of holders) await checkedRecipient(recipient);
      const { createCompanyKeyPair, grantCompanyKey } = await cryptoModule();
      const next = await createCompanyKeyPair();
      try {
        const kit = await newRecoveryKit(next.secret, next.public_key);
        const grants = [];
        for (const recipient of holders)
          grants.push({
            user_id: recipient.userId,
            fingerprint: recipient.fingerprint,
            grant: await grantCompanyKey(next.secret, next.public_key, recipient.publicKey),
          });
        const { key_version: keyVersion } = await postRotation(api, {
          key_version: company.key_version,
          public_key: next.public_key,
          aes_encrypted_private_key: kit.sealed,
          grants,
        });
        await holder.load();
        return { keyVersion, recoveryKit: kit.view };
      } finally {
        next.secret.fill(0);
      }
    },
  } satisfies Partial<StaffKeyring> & Record<string, unknown>;
  return holder;
}
