import { getPasswordSalt, type ApiClient } from '@whistle/api-client';
import type { LinkPasswordRequest, LoginRequest } from '@whistle/contracts';
import type { HeldKdfUpgrade } from '../../session/kdf-upgrade';
import { deriveStaffSecrets, prepareStaffSecretsWorker } from '../../session/staff-secrets';

/**
 * What the public pages derive from a password in the browser (docs/security.md, "Keys"): the password itself never
 * leaves the page. Loaded on demand: Argon2id and the protocol are not part of any page's first bytes.
 */
const cryptoModule = () => import('@whistle/crypto');

/**
 * Fetches that code ahead, and starts the derivation's worker (the login page does while the person types). Never
 * fails: the sign-in loads it again.
 */
export function preloadPasswordKeys(): void {
  void cryptoModule().catch(() => undefined);
  prepareStaffSecretsWorker();
}

/**
 * The sign-in body for a password: the salt call, then the derived authentication secret; for an account from
 * before, once, the password itself with the secret it will know from now on. The unlock key stays in the page.
 * `meanwhile`: what the page runs while the worker derives (see deriveStaffSecrets).
 */
export async function passwordSignIn(
  api: ApiClient,
  email: string,
  password: string,
  meanwhile?: () => void,
): Promise<{ body: LoginRequest; unlockKey: CryptoKey; kdfUpgrade?: HeldKdfUpgrade }> {
  const { CURRENT_KDF, newKdfSalt } = await cryptoModule();
  const salt = await getPasswordSalt(api, email);
  if (salt.kdf === 'legacy') {
    const kdfSalt = newKdfSalt();
    const { authSecret, unlockKey } = await deriveStaffSecrets(password, kdfSalt, CURRENT_KDF, { meanwhile });
    return {
      body: { username: email, password, upgrade: { kdf: CURRENT_KDF, kdf_salt: kdfSalt, auth_secret: authSecret } },
      unlockKey,
    };
  }
  const { authSecret, unlockKey } = await deriveStaffSecrets(password, salt.salt, salt.kdf, { meanwhile });
  const kdfUpgrade = salt.kdf === CURRENT_KDF ? undefined : { password, kdf: salt.kdf, proof: authSecret, unlockKey };
  return { body: { username: email, password: authSecret }, unlockKey, kdfUpgrade };
}

/** A new password and the person's new key pairs sealed under it (invitation, reset, onboarding). */
export async function newPasswordKeys(password: string): Promise<LinkPasswordRequest> {
  const { CURRENT_KDF, createPersonKeys, newKdfSalt, sealPersonSecret } = await cryptoModule();
  const kdfSalt = newKdfSalt();
  const [{ authSecret, unlockKey }, { publicKeys, secret }] = await Promise.all([
    deriveStaffSecrets(password, kdfSalt),
    createPersonKeys(),
  ]);
  try {
    const sealed = await sealPersonSecret(unlockKey, secret, publicKeys);
    return {
      password: authSecret,
      kdf: CURRENT_KDF,
      kdf_salt: kdfSalt,
      keys: { ...publicKeys, unlock: { method: 'password', sealed_private_keys: sealed } },
    };
  } finally {
    secret.fill(0);
  }
}

/** The recovery kit as the pages show it once: its text, the company key's fingerprint, when it was made. */
export interface RecoveryKitView {
  text: string;
  fingerprint: string;
  createdAt: string;
}

/**
 * Onboarding: the admin's new password and keys, a company key pair held by that admin (`passphrase`: their grant)
 * and sealed for a new recovery kit (`credential.aes_encrypted_private_key`), which the page shows once.
 */
export async function onboardingKeys(password: string) {
  const crypto = await cryptoModule();
  const [user, company, recovery] = await Promise.all([
    newPasswordKeys(password),
    crypto.createCompanyKeyPair(),
    crypto.createRecoveryKey(),
  ]);
  try {
    const [grant, sealed, fingerprint] = await Promise.all([
      crypto.grantCompanyKey(company.secret, company.public_key, user.keys.public_key),
      crypto.sealCompanyKeyForRecovery(recovery, company.secret, company.public_key),
      crypto.companyFingerprint(company.public_key),
    ]);
    const kit: RecoveryKitView = { text: recovery.text, fingerprint, createdAt: new Date().toISOString() };
    return {
      user,
      credential: { public_key: company.public_key, aes_encrypted_private_key: sealed },
      passphrase: grant,
      kit,
    };
  } finally {
    company.secret.fill(0);
  }
}
