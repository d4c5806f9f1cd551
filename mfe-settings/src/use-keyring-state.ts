import { useEffect, useState } from 'react';
import type { KeyringState, StaffKeyring } from '@whistle/api-client';

/** The keyring's state, followed: the shell's banner unlocks or sets up the keys while a page is open. */
export function useKeyringState(keyring: StaffKeyring): KeyringState {
  const [state, setState] = useState(keyring.state());
  useEffect(() => keyring.subscribe(setState), [keyring]);
  return state;
}
