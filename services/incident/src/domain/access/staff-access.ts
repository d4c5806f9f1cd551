import type { IncidentPermissions, Role } from '@whistle/contracts';

/** A signed-in staff member, as their verified token says. */
export interface StaffViewer {
  userId: string;
  companyId: string;
  roles: readonly Role[];
}

/** ADMIN and REVIEWER see every case of their company (triage); a HANDLER only the cases assigned to them. */
export const seesEveryCase = (viewer: StaffViewer) =>
  viewer.roles.includes('ADMIN') || viewer.roles.includes('REVIEWER');

/**
 * Which cases a viewer may see, as the repositories apply it: their company's, never one they are excluded
 * from, and for a handler only those assigned to them.
 */
export interface CaseScope {
  companyId: string;
  userId: string;
  everyCase: boolean;
}

export const scopeOf = (viewer: StaffViewer): CaseScope => ({
  companyId: viewer.companyId,
  userId: viewer.userId,
  everyCase: seesEveryCase(viewer),
});

/** What the viewer may do on a case they see (docs/case-management.md "Who sees and does what"). */
export function permissionsOf(viewer: StaffViewer): IncidentPermissions {
  const admin = viewer.roles.includes('ADMIN');
  return {
    update_status: true,
    reply: true,
    add_note: true,
    assign: admin || viewer.roles.includes('REVIEWER'),
    exclude: admin,
    change_categories: admin,
  };
}
