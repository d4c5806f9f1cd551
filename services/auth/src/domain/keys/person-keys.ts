import { randomUUID } from 'node:crypto';
import type { NewPersonKeys, UnlockMethodInput } from '@whistle/contracts';
import { personFingerprint } from '@whistle/crypto';
import type { Queryable, Transaction } from '@whistle/service-kit';
import { personKeyRepository, type NewUnlockMethod } from '../../data-access/person-key.repository';
import { companyKeyRepository } from '../../data-access/company-key.repository';

/** How an unlock method from a request is stored. */
export function storedUnlockMethod(input: UnlockMethodInput): NewUnlockMethod {
  const base = { id: randomUUID(), method: input.method, sealedPrivateKeys: input.sealed_private_keys };
  if (input.method === 'passkey')
    return { ...base, credentialId: input.credential_id, prfSalt: input.prf_salt, label: input.label };
  if (input.method === 'passphrase') return { ...base, kdf: input.kdf, kdfSalt: input.kdf_salt };
  return base;
}

/**
 * Stores a person's new keys with their first unlock method and announces them. When they replace older keys (a
 * reset by e-mail), everything wrapped to the old ones is gone with them: the company key grants (the incident
 * service drops the case grants on the event), and access must be restored by the recovery kit or another admin.
 */
export async function putPersonKeys(
  tx: Transaction,
  person: { companyId: string; userId: string },
  keys: NewPersonKeys,
): Promise<{ replaced: boolean }> {
  const row = {
    user_id: person.userId,
    key_id: randomUUID(),
    public_key: keys.public_key,
    signing_public_key: keys.signing_public_key,
    fingerprint: await personFingerprint(keys),
  };
  const hadGrants = (await companyKeyRepository.grantsOf(tx, person.companyId, person.userId)).length > 0;
  const { replaced } = await personKeyRepository.replace(tx, person.companyId, row);
  const unlock = storedUnlockMethod(keys.unlock);
  await personKeyRepository.addUnlockMethod(tx, person.companyId, person.userId, unlock);
  const actor = { type: 'STAFF' as const, user_id: person.userId };
  await tx.addEvent({
    name: 'user.keys_created',
    company_id: person.companyId,
    payload: {
      user_id: person.userId,
      key_id: row.key_id,
      public_key: row.public_key,
      signing_public_key: row.signing_public_key,
      fingerprint: row.fingerprint,
      replaced,
    },
    actor,
  });
  await tx.addEvent({
    name: 'user.unlock_method_added',
    company_id: person.companyId,
    payload: { user_id: person.userId, unlock_id: unlock.id, method: unlock.method },
    actor,
  });
  // The grants went with the old keys (foreign key cascade): said in the trail, with why.
  if (hadGrants)
    await tx.addEvent({
      name: 'company.key_revoked',
      company_id: person.companyId,
      payload: { user_id: person.userId, key_version: null, reason: 'keys_replaced' },
      actor,
    });
  return { replaced };
}

/** The person's current key row, for checks that a grant goes to the key somebody compared. */
export const currentPersonKey = (db: Queryable, companyId: string, userId: string) =>
  personKeyRepository.ofUser(db, companyId, userId);
