import type { EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
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
}
