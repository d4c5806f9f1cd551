import { randomUUID } from 'node:crypto';
import { OUTDATED_CLIENT_MESSAGE } from '@whistle/contracts';
import { isAuthSecret } from '@whistle/crypto';
import { AuthenticationError, InputError, type Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { personKeyRepository } from '../../data-access/person-key.repository';
import { userRepository, type UserRow } from '../../data-access/user.repository';
import type { AccountDependencies } from './account-dependencies';
import { verifyPasswordHash } from './password-hash';

// What a password change and a kdf upgrade share: who is asking, the proof of the current password, and the keys'
// password copy sealed again.

export async function signedInUser(deps: AccountDependencies, principal: StaffPrincipal): Promise<UserRow> {
  const user = await userRepository.byId(deps.db, principal.companyId, principal.userId);
  if (!user) throw new AuthenticationError();
  return user;
}

/** Whether `candidate` is the account's current password (a password change's or a kdf upgrade's proof). */
export async function isCurrentPassword(user: UserRow, candidate: string | undefined): Promise<boolean> {
  return (
    candidate !== undefined &&
    user.password_hash !== null &&
    // An account from before still compares the password itself; every other, the derived secret.
    (user.kdf_salt === null || isAuthSecret(candidate)) &&
    (await verifyPasswordHash(user.password_hash, candidate))
  );
}

/**
 * The keys stay the same; their password copy is sealed again under the new unlock key (a new password, or the same
 * one derived again). A person with keys must send it: a page from before sends none.
 */
export async function resealPasswordCopy(
  tx: Transaction,
  user: Pick<UserRow, 'company_id' | 'id'>,
  sealed: string | undefined,
): Promise<void> {
  const keys = await personKeyRepository.ofUser(tx, user.company_id, user.id);
  if (!keys) return;
  if (!sealed) throw new InputError('Bad Request', { sealed_private_keys: [OUTDATED_CLIENT_MESSAGE] });
  const resealed = await personKeyRepository.resealPassword(tx, user.company_id, user.id, sealed);
  if (!resealed)
    await personKeyRepository.addUnlockMethod(tx, user.company_id, user.id, {
      id: randomUUID(),
      method: 'password',
      sealedPrivateKeys: sealed,
    });
}
