import { getOwnKeys, upgradePasswordKdf, type ApiClient } from '@whistle/api-client';
import type { KdfName } from '@whistle/contracts';
import { deriveStaffSecrets } from './staff-secrets';

/**
 * What a password sign-in whose salt named an older kdf leaves for the upgrade (docs/security.md, "Migration"):
 * the password, the old derivation's secret (the proof) and unlock key (it opens the keys' password copy).
 */
export interface HeldKdfUpgrade {
  password: string;
  kdf: KdfName;
  proof: string;
  unlockKey: CryptoKey;
}

/**
 * The same password derived again with the current kdf, the keys' password copy re-sealed under the new unlock key,
 * sent with the old secret as proof. Nothing when the account has moved on already (another tab, another device).
 */
async function upgrade(api: ApiClient, held: HeldKdfUpgrade): Promise<boolean> {
  const { CURRENT_KDF, newKdfSalt, resealPersonSecret } = await import('@whistle/crypto');
  const own = await getOwnKeys(api);
  if (held.kdf === CURRENT_KDF || own.password?.kdf !== held.kdf) return false;
  const kdfSalt = newKdfSalt();
  const fresh = await deriveStaffSecrets(held.password, kdfSalt, CURRENT_KDF);
  const copy = own.person?.unlock.find((method) => method.method === 'password');
  const sealed =
    own.person && copy
      ? await resealPersonSecret(held.unlockKey, copy.sealed_private_keys, own.person, fresh.unlockKey)
      : undefined;
  await upgradePasswordKdf(api, {
    kdf: CURRENT_KDF,
    password: fresh.authSecret,
    kdf_salt: kdfSalt,
    current_password: held.proof,
    ...(sealed ? { sealed_private_keys: sealed } : {}),
  });
  return true;
}

/**
 * Holds one upgrade from the sign-in until the person is in, then runs it once. The password is kept no longer:
 * `run` drops it whatever the outcome; a failure (network, a refusal) changes nothing, and the next sign-in
 * tries again. Nothing is logged: every value here is a secret.
 */
export function createKdfUpgrade(api: ApiClient) {
  let held: HeldKdfUpgrade | undefined;
  return {
    hold(upgradeOf: HeldKdfUpgrade | undefined) {
      held = upgradeOf;
    },
    forget() {
      held = undefined;
    },
    isHeld: () => held !== undefined,
    /** 'upgraded', 'none' (nothing held, or nothing to do) or 'failed'; never throws. */
    async run(): Promise<'upgraded' | 'none' | 'failed'> {
      const taken = held;
      held = undefined;
      if (!taken) return 'none';
      try {
        return (await upgrade(api, taken)) ? 'upgraded' : 'none';
      } catch {
        return 'failed';
      }
    },
  };
}
