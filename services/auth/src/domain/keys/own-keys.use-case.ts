import type { NewPersonKeys, OwnKeysResponse, UnlockMethodInput } from '@whistle/contracts';
import { ConflictError, InputError, NotFoundError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { personKeyRepository } from '../../data-access/person-key.repository';
import { userRepository } from '../../data-access/user.repository';
import type { KeyDependencies } from './key-dependencies';
import { putPersonKeys, storedUnlockMethod } from './person-keys';

/** GET /api/account/profile/keys: the caller's password salt, public keys and sealed copies (theirs alone). */
export async function ownKeys(deps: KeyDependencies, principal: StaffPrincipal): Promise<OwnKeysResponse> {
  const [user, key, methods] = await Promise.all([
    userRepository.byId(deps.db, principal.companyId, principal.userId),
    personKeyRepository.ofUser(deps.db, principal.companyId, principal.userId),
    personKeyRepository.unlockMethods(deps.db, principal.companyId, principal.userId),
  ]);
  if (!user) throw new NotFoundError('User not found');
  return {
    password: user.kdf && user.kdf_salt ? { kdf: user.kdf, salt: user.kdf_salt } : null,
    person: key
      ? {
          public_key: key.public_key,
          signing_public_key: key.signing_public_key,
          fingerprint: key.fingerprint,
          unlock: methods.map((method) => ({ ...method, created: method.created_at.toISOString() })),
        }
      : null,
  };
}

/**
 * PUT /api/account/profile/keys: a person without keys makes them (first SSO sign-in: a passkey or an unlock
 * passphrase; an account from before: its password). Someone who has keys changes them only by a reset.
 */
export async function createOwnKeys(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  keys: NewPersonKeys,
): Promise<OwnKeysResponse> {
  await deps.unitOfWork(async (tx) => {
    if (await personKeyRepository.ofUser(tx, principal.companyId, principal.userId))
      throw new ConflictError('You already have keys');
    if (keys.unlock.method === 'password') {
      const user = await userRepository.byId(tx, principal.companyId, principal.userId);
      if (!user?.kdf_salt) throw new InputError('Bad Request', { unlock: ['Sign in with your password again first'] });
    }
    await putPersonKeys(tx, { companyId: principal.companyId, userId: principal.userId }, keys);
  });
  return ownKeys(deps, principal);
}

/** POST /api/account/profile/keys/unlock: one more way to unlock one's keys (a passkey, an unlock passphrase). */
export async function addUnlockMethod(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  input: UnlockMethodInput,
): Promise<OwnKeysResponse> {
  if (input.method === 'password')
    throw new InputError('Bad Request', { method: ['The password copy changes with the password only'] });
  await deps.unitOfWork(async (tx) => {
    if (!(await personKeyRepository.ofUser(tx, principal.companyId, principal.userId)))
      throw new ConflictError('Set up your keys first');
    const existing = await personKeyRepository.unlockMethods(tx, principal.companyId, principal.userId);
    if (input.method === 'passphrase' && existing.some((method) => method.method === 'passphrase'))
      throw new ConflictError('You already have an unlock passphrase: remove it first');
    if (input.method === 'passkey' && existing.some((method) => method.credential_id === input.credential_id))
      throw new ConflictError('This passkey is already registered');
    const unlock = storedUnlockMethod(input);
    await personKeyRepository.addUnlockMethod(tx, principal.companyId, principal.userId, unlock);
    await tx.addEvent({
      name: 'user.unlock_method_added',
      company_id: principal.companyId,
      payload: { user_id: principal.userId, unlock_id: unlock.id, method: unlock.method },
      actor: { type: 'STAFF', user_id: principal.userId },
    });
  });
  return ownKeys(deps, principal);
}

/** DELETE /api/account/profile/keys/unlock/{id}: never the last way in, nor the password's own copy. */
export async function removeUnlockMethod(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  unlockId: string,
): Promise<OwnKeysResponse> {
  await deps.unitOfWork(async (tx) => {
    const methods = await personKeyRepository.unlockMethods(tx, principal.companyId, principal.userId);
    const target = methods.find((method) => method.id === unlockId);
    if (!target) throw new NotFoundError('Unlock method not found');
    if (target.method === 'password')
      throw new InputError('Bad Request', { id: ['Your password always unlocks your keys'] });
    if (methods.length === 1)
      throw new InputError('Bad Request', { id: ['This is your only way to unlock your keys: add another first'] });
    await personKeyRepository.removeUnlockMethod(tx, principal.companyId, principal.userId, unlockId);
    await tx.addEvent({
      name: 'user.unlock_method_removed',
      company_id: principal.companyId,
      payload: { user_id: principal.userId, unlock_id: unlockId, method: target.method },
      actor: { type: 'STAFF', user_id: principal.userId },
    });
  });
  return ownKeys(deps, principal);
}
