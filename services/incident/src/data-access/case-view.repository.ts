import type { Queryable } from '@whistle/service-kit';

/** The sign-in sessions in which each staff member opened each case. */
export const caseViewRepository = {
  /**
   * Records that `userId` opened the case in the session signed in at `signedInAt`; false when it already had, or
   * when the case went meanwhile (deleted by retention after it was read: nothing to record, and no key violation).
   */
  async recordFirstInSession(
    tx: Queryable,
    view: { companyId: string; incidentId: string; userId: string; signedInAt: Date },
  ): Promise<boolean> {
    const { rowCount } = await tx.query(
      `insert into incident.case_view (incident_id, company_id, user_id, signed_in_at)
       select id, company_id, $3::uuid, $4::timestamptz from incident.incident where id = $1 and company_id = $2
       on conflict do nothing`,
      [view.incidentId, view.companyId, view.userId, view.signedInAt],
    );
    return rowCount === 1;
  },
};
