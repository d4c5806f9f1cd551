import { useEffect, useState } from 'react';
import type { StaffKeyring } from '@whistle/api-client';
import type { IncidentListItem } from '@whistle/contracts';
import { identityOf, identityThrough, type Identity } from '../case/case-key';

/**
 * The identities of the cases on screen, decrypted in the browser for the visible page only: with the company key,
 * or, for a case the person holds a grant of (handlers, reviewers), with their own key through the keyring. A case
 * neither opens (keys locked, MFA not done, no grant) is not decrypted: `locked`.
 */
export function useIdentities(
  items: readonly IncidentListItem[] | undefined,
  keyring: StaffKeyring,
  companyPrivateKey: CryptoKey | undefined,
  /** During a company key rotation: the previous key, which still wraps the cases not yet re-wrapped. */
  previousCompanyPrivateKey?: CryptoKey,
  /** The keyring's state: the person's own keys open their grants once unlocked. */
  keyringState?: string,
) {
  const [identities, setIdentities] = useState<ReadonlyMap<string, Identity>>(new Map());
  const unlocked = keyringState === 'unlocked';
  const opens = (item: IncidentListItem) => companyPrivateKey !== undefined || (unlocked && !!item.keys.my_grant);
  useEffect(() => {
    if (!items) return undefined;
    let current = true;
    const openable = items.filter(
      (item) => companyPrivateKey !== undefined || (keyringState === 'unlocked' && !!item.keys.my_grant),
    );
    void Promise.all(
      openable.map(
        async (item) =>
          [
            item.uuid,
            companyPrivateKey
              ? await identityOf(item, companyPrivateKey, previousCompanyPrivateKey)
              : await identityThrough(item, (keys) => keyring.openCase(keys)),
          ] as const,
      ),
    ).then((entries) => {
      if (current) setIdentities(new Map(entries));
    });
    return () => {
      current = false;
    };
  }, [items, keyring, companyPrivateKey, previousCompanyPrivateKey, keyringState]);
  return { identities, locked: !items || items.some((item) => !opens(item)) };
}
