import type { Queryable } from '@whistle/service-kit';

/** Who works a case (assignees) and who may not see it (exclusions, conflict of interest), with their names. */
export const caseTeamRepository = {
  /** Assignees of each case among `incidentIds`, with their names (a removed member keeps theirs). */
  async assigneesOf(db: Queryable, companyId: string, incidentIds: readonly string[]) {
    const { rows } = await db.query<{ incident_id: string; uuid: string; full_name: string }>(
      `select a.incident_id, a.user_id as uuid, coalesce(s.full_name, '') as full_name
         from incident.assignee a left join incident.staff_member s on s.user_id = a.user_id and s.company_id = a.company_id
        where a.company_id = $1 and a.incident_id = any($2::uuid[])
        order by s.full_name`,
      [companyId, incidentIds],
    );
    return rows;
  },

  async exclusionsOf(db: Queryable, companyId: string, incidentId: string) {
    const { rows } = await db.query<{ uuid: string; full_name: string }>(
      `select x.user_id as uuid, coalesce(s.full_name, '') as full_name
         from incident.exclusion x left join incident.staff_member s on s.user_id = x.user_id and s.company_id = x.company_id
        where x.company_id = $1 and x.incident_id = $2 order by s.full_name`,
      [companyId, incidentId],
    );
    return rows;
  },

  async assignees(db: Queryable, companyId: string, incidentId: string): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      'select user_id from incident.assignee where company_id = $1 and incident_id = $2',
      [companyId, incidentId],
    );
    return rows.map((row) => row.user_id);
  },

  async addAssignees(db: Queryable, companyId: string, incidentId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await db.query(
      `insert into incident.assignee (incident_id, user_id, company_id)
       select $2, unnest($3::uuid[]), $1 on conflict do nothing`,
      [companyId, incidentId, userIds],
    );
  },

  async removeAssignees(
    db: Queryable,
    companyId: string,
    incidentId: string,
    userIds: readonly string[],
  ): Promise<void> {
    if (userIds.length === 0) return;
    await db.query(
      'delete from incident.assignee where company_id = $1 and incident_id = $2 and user_id = any($3::uuid[])',
      [companyId, incidentId, userIds],
    );
  },

  async exclusions(db: Queryable, companyId: string, incidentId: string): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      'select user_id from incident.exclusion where company_id = $1 and incident_id = $2',
      [companyId, incidentId],
    );
    return rows.map((row) => row.user_id);
  },

  /** Those the discloser kept out with the report (migration 026): no one lifts these. */
  async reporterExclusions(db: Queryable, companyId: string, incidentId: string): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      'select user_id from incident.exclusion where company_id = $1 and incident_id = $2 and by_reporter',
      [companyId, incidentId],
    );
    return rows.map((row) => row.user_id);
  },

  async addExclusions(db: Queryable, companyId: string, incidentId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await db.query(
      `insert into incident.exclusion (incident_id, user_id, company_id)
       select $2, unnest($3::uuid[]), $1 on conflict do nothing`,
      [companyId, incidentId, userIds],
    );
  },

  async removeExclusions(
    db: Queryable,
    companyId: string,
    incidentId: string,
    userIds: readonly string[],
  ): Promise<void> {
    if (userIds.length === 0) return;
    await db.query(
      'delete from incident.exclusion where company_id = $1 and incident_id = $2 and user_id = any($3::uuid[])',
      [companyId, incidentId, userIds],
    );
  },
};
