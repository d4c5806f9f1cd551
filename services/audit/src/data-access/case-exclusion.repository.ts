import type { Queryable } from '@whistle/service-kit';

/** Who is kept out of which case (migration 006), as incident announced it: the audit's own read model. */
export const caseExclusionRepository = {
  /** Adds to a case's exclusions (a report's own, from incident.created v2). */
  async add(db: Queryable, companyId: string, incidentId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await db.query(
      `insert into audit.case_exclusion (company_id, incident_id, user_id)
       select $1, $2, unnest($3::uuid[]) on conflict do nothing`,
      [companyId, incidentId, userIds],
    );
  },

  /** A case's exclusions as they stand after a change (incident.exclusion.changed carries the whole list). */
  async replace(db: Queryable, companyId: string, incidentId: string, userIds: readonly string[]): Promise<void> {
    await db.query('delete from audit.case_exclusion where company_id = $1 and incident_id = $2', [
      companyId,
      incidentId,
    ]);
    await this.add(db, companyId, incidentId, userIds);
  },
};
