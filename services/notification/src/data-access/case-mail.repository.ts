import type { Queryable } from '@whistle/service-kit';

export interface Recipient {
  user_id: string;
  email: string;
  language: string;
}

/** The read models case mails are addressed from: staff, label assignees, cases, company switches. */
export const caseMailRepository = {
  async upsertStaff(
    db: Queryable,
    member: {
      userId: string;
      companyId: string;
      email: string;
      roles: string[];
      language?: string;
      notifications?: object;
    },
  ): Promise<void> {
    await db.query(
      `insert into notification.staff_member (user_id, company_id, email, roles, language, notifications)
       values ($1, $2, $3, $4, coalesce($5, 'en'), coalesce($6::jsonb, '{}'))
       on conflict (user_id) do update set email = excluded.email, roles = excluded.roles,
         language = coalesce($5, notification.staff_member.language),
         notifications = coalesce($6::jsonb, notification.staff_member.notifications)`,
      [
        member.userId,
        member.companyId,
        member.email,
        member.roles,
        member.language ?? null,
        member.notifications ? JSON.stringify(member.notifications) : null,
      ],
    );
  },

  async removeStaff(db: Queryable, companyId: string, userId: string): Promise<void> {
    await db.query('delete from notification.staff_member where company_id = $1 and user_id = $2', [companyId, userId]);
  },

  async setCategoryAssignees(db: Queryable, companyId: string, categoryId: string, assigneeIds: string[]) {
    await db.query(
      `insert into notification.category_assignees (category_id, company_id, assignee_ids) values ($1, $2, $3)
       on conflict (category_id) do update set assignee_ids = excluded.assignee_ids`,
      [categoryId, companyId, assigneeIds],
    );
  },

  async removeCategory(db: Queryable, companyId: string, categoryId: string): Promise<void> {
    await db.query('delete from notification.category_assignees where company_id = $1 and category_id = $2', [
      companyId,
      categoryId,
    ]);
  },

  async setCompanySettings(
    db: Queryable,
    companyId: string,
    settings: { name: string; notifications: Record<string, boolean> },
  ): Promise<void> {
    const { notifications: n } = settings;
    await db.query(
      `update notification.company_preferences set name = $2, new_incidents = $3, assigned_to_an_incident = $4,
              incident_updates = $5, deadlines = $6
        where company_id = $1`,
      [companyId, settings.name, n.new_incidents, n.assigned_to_an_incident, n.incident_updates, n.deadlines],
    );
  },

  /** Whether the company sends this kind of mail at all (spec §3 settings); unknown companies send none. */
  async companySends(db: Queryable, companyId: string, kind: MailKind): Promise<boolean> {
    const { rows } = await db.query<Record<MailKind, boolean>>(
      `select new_incidents, assigned_to_an_incident, incident_updates, deadlines
         from notification.company_preferences where company_id = $1`,
      [companyId],
    );
    return rows[0]?.[kind] ?? false;
  },

  async upsertIncident(
    db: Queryable,
    incident: { incidentId: string; companyId: string; number: number; assigneeIds?: string[] },
  ): Promise<void> {
    await db.query(
      `insert into notification.incident (incident_id, company_id, display_report_number, assignee_ids)
       values ($1, $2, $3, coalesce($4::uuid[], '{}'))
       on conflict (incident_id) do update set display_report_number = excluded.display_report_number,
         assignee_ids = coalesce($4::uuid[], notification.incident.assignee_ids)`,
      [incident.incidentId, incident.companyId, incident.number, incident.assigneeIds ?? null],
    );
  },

  async removeIncident(db: Queryable, companyId: string, incidentId: string): Promise<void> {
    await db.query('delete from notification.incident where company_id = $1 and incident_id = $2', [
      companyId,
      incidentId,
    ]);
  },

  async setExclusions(db: Queryable, companyId: string, incidentId: string, excludedIds: string[]): Promise<void> {
    await db.query('update notification.incident set excluded_ids = $3 where company_id = $1 and incident_id = $2', [
      companyId,
      incidentId,
      excludedIds,
    ]);
  },

  async incident(db: Queryable, companyId: string, incidentId: string) {
    const { rows } = await db.query<{ display_report_number: number; assignee_ids: string[] }>(
      'select display_report_number, assignee_ids from notification.incident where company_id = $1 and incident_id = $2',
      [companyId, incidentId],
    );
    return rows[0];
  },

  /**
   * Staff of the company among `userIds`, plus every admin when `withAdmins`, who have not turned `kind` off
   * for themselves and are not excluded from the case (read here, so no caller can forget the exclusions).
   */
  async recipients(
    db: Queryable,
    companyId: string,
    kind: MailKind,
    { incidentId, userIds, withAdmins }: { incidentId: string; userIds: string[]; withAdmins: boolean },
  ): Promise<Recipient[]> {
    const { rows } = await db.query<Recipient>(
      `select s.user_id, s.email, s.language from notification.staff_member s
        where s.company_id = $1 and (s.user_id = any($2::uuid[]) or ($3 and 'ADMIN' = any(s.roles)))
          and coalesce((s.notifications ->> $4)::boolean, true)
          and not exists (select 1 from notification.incident i
                           where i.company_id = $1 and i.incident_id = $5 and s.user_id = any(i.excluded_ids))
        order by s.email`,
      [companyId, userIds, withAdmins, kind, incidentId],
    );
    return rows;
  },

  async categoryAssignees(db: Queryable, companyId: string, categoryIds: string[]): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      `select distinct unnest(assignee_ids) as user_id from notification.category_assignees
        where company_id = $1 and category_id = any($2::uuid[])`,
      [companyId, categoryIds],
    );
    return rows.map((row) => row.user_id);
  },
};

/** Spec §3 notification settings options: the kinds of case mail. */
export type MailKind = 'new_incidents' | 'assigned_to_an_incident' | 'incident_updates' | 'deadlines';
