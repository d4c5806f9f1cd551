import type { Queryable } from '@whistle/service-kit';

/** The sign-in sessions in which each staff member opened each case. */
export const caseViewRepository = {
  /** Records that `userId` opened the case in the session signed in at `signedInAt`; false when it already had. */
  async recordFirstInSession(
    tx: Queryable,
    view: { companyId: string; incidentId: string; userId: string; signedInAt: Date },
  ): Promise<boolean> {
    const { rowCount } = await tx.query(
      `insert into incident.case_view (incident_id, company_id, user_id, signed_in_at)
       values ($1, $2, $3, $4) on conflict do nothing`,
      [view.incidentId, view.companyId, view.userId, view.signedInAt],
    );
    return rowCount === 1;
  },
};
