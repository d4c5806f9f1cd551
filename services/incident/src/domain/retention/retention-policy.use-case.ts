import type { RetentionPolicy } from '@whistle/contracts';
import { NotAllowedError, NotFoundError, type Queryable, type UnitOfWork } from '@whistle/service-kit';
import { retentionRepository } from '../../data-access/retention.repository';
import type { StaffViewer } from '../access/staff-access';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionPolicyOptions {
  /** Days before a deletion the admins are warned: a shortened policy never deletes sooner than that. */
  warningDays: number;
}

/** The policy is the admins' alone (403 for REVIEWER and HANDLER). */
export function assertRetentionAdmin(viewer: StaffViewer): void {
  if (!viewer.roles.includes('ADMIN')) throw new NotAllowedError('The retention policy is for admins');
}

/** GET /api/incident/retention (ADMIN): the policy in force in the viewer's company. */
export async function getRetentionPolicy(
  db: Queryable,
  viewer: StaffViewer,
  { warningDays }: RetentionPolicyOptions,
): Promise<RetentionPolicy> {
  assertRetentionAdmin(viewer);
  return { retention_months: await retentionRepository.months(db, viewer.companyId), warning_days: warningDays };
}

/**
 * PUT /api/incident/retention (ADMIN): a new policy for the viewer's company. Its closed cases' deletion dates
 * move with it in the same transaction; a change is announced (company.retention_changed) for the audit trail.
 */
export async function setRetentionPolicy(
  deps: { unitOfWork: UnitOfWork },
  viewer: StaffViewer,
  months: number,
  { warningDays }: RetentionPolicyOptions,
): Promise<RetentionPolicy> {
  assertRetentionAdmin(viewer);
  await deps.unitOfWork(async (tx) => {
    const previous = await retentionRepository.setMonths(tx, viewer.companyId, months, warningDays * DAY_MS);
    // auth's company.created has not reached this service yet: nothing to set a policy on.
    if (previous === undefined) throw new NotFoundError('Company not found');
    if (previous === months) return;
    await tx.addEvent({
      name: 'company.retention_changed',
      company_id: viewer.companyId,
      payload: { retention_months: months },
      actor: { type: 'STAFF', user_id: viewer.userId },
    });
  });
  return { retention_months: months, warning_days: warningDays };
}
