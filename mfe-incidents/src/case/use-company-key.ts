import { useCallback, useSyncExternalStore } from 'react';
import type { KeyringState, StaffSession } from '@whistle/api-client';

/**
 * The company private key from the shell's keyring, non-extractable, or undefined while the person's keys are locked
 * or no admin has granted it to them yet. Follows the keyring: a page waiting for it reads as soon as it unlocks.
 */
export function useCompanyKey(session: StaffSession): CryptoKey | undefined {
  const subscribe = useCallback(
    (changed: () => void) => {
      const unsubscribe = session.keyring.subscribe(changed);
      return () => void unsubscribe();
    },
    [session],
  );
  return useSyncExternalStore(subscribe, () => session.keyring.workerMaterial()?.companyPrivateKey);
}

/** The keyring's state (unlocked, locked…), followed: a page waiting for the person's keys reads once they unlock. */
export function useKeyringState(session: StaffSession): KeyringState {
  const subscribe = useCallback(
    (changed: () => void) => {
      const unsubscribe = session.keyring.subscribe(changed);
      return () => void unsubscribe();
    },
    [session],
  );
  return useSyncExternalStore(subscribe, () => session.keyring.state());
}
