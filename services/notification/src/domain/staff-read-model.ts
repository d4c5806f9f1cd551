import type { EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { caseMailRepository } from '../data-access/case-mail.repository';

/**
 * user.created / user.updated: who to mail, in which language, with their own switches. A user.created v1 carries
 * no language: the member is mailed in English until a user.updated says otherwise.
 */
export async function recordStaffMember(
  tx: Queryable,
  companyId: string,
  user:
    | EventPayload<'user.created'>
    | EventPayload<'user.created', 2>
    | EventPayload<'user.updated'>
    | EventPayload<'user.updated', 2>,
): Promise<void> {
  await caseMailRepository.upsertStaff(tx, {
    userId: user.user_id,
    companyId,
    email: user.email,
    roles: user.roles,
    language: 'language' in user ? user.language : undefined,
    notifications: 'notifications' in user ? user.notifications : undefined,
  });
}

export const removeStaffMember = (tx: Queryable, companyId: string, user: EventPayload<'user.deleted'>) =>
  caseMailRepository.removeStaff(tx, companyId, user.user_id);

/** category.*: the label's default assignees hear of its new reports. */
export const recordCategory = (tx: Queryable, companyId: string, category: EventPayload<'category.created'>) =>
  caseMailRepository.setCategoryAssignees(tx, companyId, category.category_id, category.assignee_ids);

export const removeCategory = (tx: Queryable, companyId: string, category: EventPayload<'category.deleted'>) =>
  caseMailRepository.removeCategory(tx, companyId, category.category_id);

/** company.updated: the company's name and which kinds of mail it sends. */
export const recordCompanySettings = (tx: Queryable, companyId: string, company: EventPayload<'company.updated'>) =>
  caseMailRepository.setCompanySettings(tx, companyId, company);
