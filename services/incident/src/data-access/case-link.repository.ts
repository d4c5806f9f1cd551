import type { Queryable } from '@whistle/service-kit';

/** Links between cases (migration 022), stored in both directions. */
export const caseLinkRepository = {
  /** Links the two cases both ways; false when they were already linked. */
  async link(
    db: Queryable,
    link: { companyId: string; incidentId: string; linkedIncidentId: string; userId: string },
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `insert into incident.case_link (incident_id, linked_incident_id, company_id, linked_by)
       values ($2, $3, $1, $4), ($3, $2, $1, $4) on conflict do nothing`,
      [link.companyId, link.incidentId, link.linkedIncidentId, link.userId],
    );
    return (rowCount ?? 0) > 0;
  },

  /** Unlinks the two cases both ways; false when they were not linked. */
  async unlink(db: Queryable, companyId: string, incidentId: string, linkedIncidentId: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `delete from incident.case_link
        where company_id = $1 and ((incident_id = $2 and linked_incident_id = $3)
                                or (incident_id = $3 and linked_incident_id = $2))`,
      [companyId, incidentId, linkedIncidentId],
    );
    return (rowCount ?? 0) > 0;
  },

  /** Ids of the cases linked to `incidentId`; the caller keeps those the viewer may see. */
  async linkedIds(db: Queryable, companyId: string, incidentId: string): Promise<string[]> {
    const { rows } = await db.query<{ linked_incident_id: string }>(
      'select linked_incident_id from incident.case_link where company_id = $1 and incident_id = $2',
      [companyId, incidentId],
    );
    return rows.map((row) => row.linked_incident_id);
  },
};
