import type { CaseKeyTrust } from '@whistle/api-client';
import type { PersonKeys } from '@whistle/crypto';
import { caseKeyPinStore, type StoredKeys } from './key-store';

/** Loaded on the first use: the public pages (and the discloser's) never pay for the protocol. */
const cryptoModule = () => import('@whistle/crypto');

/**
 * Trust on first use of each case's incident public key (docs/security.md, "Pinned case keys"), for the unlocked
 * person (`person()`, undefined while locked). Opening a case already proves its key belongs with what the person
 * holds (the sealed private key binds its public key); a server that swaps the whole key set of a case — a new key
 * pair and passphrase, wrapped anew to the company key or the person's key, both public — passes that check, and
 * only a pin of the key first seen tells.
 */
export function createCaseKeyPins(person: () => StoredKeys | undefined) {
  // Derived once per unlocked keys (an ECDH and an HKDF), not at each case.
  let pinKey: { of: PersonKeys; key: Promise<CryptoKey> } | undefined;

  async function pinOf(incidentUuid: string, incidentPublicKey: string) {
    const keys = person();
    if (!keys) throw new Error('Unlock your keys first');
    const { caseKeyPin, caseKeyPinKey } = await cryptoModule();
    if (pinKey?.of !== keys.person) pinKey = { of: keys.person, key: caseKeyPinKey(keys.person) };
    return caseKeyPin(await pinKey.key, incidentUuid, incidentPublicKey);
  }

  return {
    async pinCaseKey(incidentUuid: string, incidentPublicKey: string): Promise<CaseKeyTrust> {
      const pin = await pinOf(incidentUuid, incidentPublicKey);
      const pinned = await caseKeyPinStore.load(pin.slot);
      if (pinned === null) await caseKeyPinStore.save(pin);
      // A store that cannot be read has nothing to compare with; pinning now could overwrite the pin it holds.
      if (pinned === undefined || pinned === null) return 'pinned';
      return pinned === pin.pin ? 'pinned' : 'changed';
    },

    async repinCaseKey(incidentUuid: string, incidentPublicKey: string): Promise<void> {
      await caseKeyPinStore.save(await pinOf(incidentUuid, incidentPublicKey));
    },
  };
}
