import { useEffect, useState } from 'react';
import type { IncidentListItem } from '@whistle/contracts';
import { identityOf, type Identity } from '../case/case-key';

/**
 * The identities of the cases on screen, decrypted in the browser with the company key, for the visible
 * page only. Without the key (MFA not done in this session) nothing is decrypted: `locked`.
 */
export function useIdentities(
  items: readonly IncidentListItem[] | undefined,
  companyPrivateKey: CryptoKey | undefined,
  /** During a company key rotation: the previous key, which still wraps the cases not yet re-wrapped. */
  previousCompanyPrivateKey?: CryptoKey,
) {
  const [identities, setIdentities] = useState<ReadonlyMap<string, Identity>>(new Map());
  useEffect(() => {
    if (!items || !companyPrivateKey) return undefined;
    let current = true;
    void Promise.all(
      items.map(
        async (item) => [item.uuid, await identityOf(item, companyPrivateKey, previousCompanyPrivateKey)] as const,
      ),
    ).then((entries) => {
      if (current) setIdentities(new Map(entries));
    });
    return () => {
      current = false;
    };
  }, [items, companyPrivateKey, previousCompanyPrivateKey]);
  return { identities, locked: !companyPrivateKey };
}
