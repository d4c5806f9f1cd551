import type { EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { caseGrantRepository } from '../../data-access/case-grant.repository';
import { staffRepository } from '../../data-access/staff.repository';

/** Staff as auth announces them: names for threads and history, who may be assigned, who was removed. */
export async function recordStaffMember(
  tx: Queryable,
  companyId: string,
  user: EventPayload<'user.created'> | EventPayload<'user.updated'>,
): Promise<void> {
  await staffRepository.upsert(tx, {
    userId: user.user_id,
    companyId,
    fullName: user.full_name,
    roles: user.roles,
  });
}

export async function removeStaffMember(
  tx: Queryable,
  companyId: string,
  user: EventPayload<'user.deleted'>,
): Promise<void> {
  await staffRepository.markRemoved(tx, companyId, user.user_id, user.deleted_at);
  await caseGrantRepository.removeAllOf(tx, companyId, user.user_id);
}

/**
 * A person's public key, so a per-case grant names a key this service knows; new keys (after a reset by e-mail)
 * replace the old, and what was wrapped to the old ones goes (docs/security.md, "Per-case grants").
 */
export async function recordStaffKey(
  tx: Queryable,
  companyId: string,
  keys: EventPayload<'user.keys_created'>,
): Promise<void> {
  await caseGrantRepository.recordKey(tx, companyId, {
    userId: keys.user_id,
    keyId: keys.key_id,
    publicKey: keys.public_key,
    fingerprint: keys.fingerprint,
  });
}
