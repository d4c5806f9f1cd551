import type { Queryable } from '@whistle/service-kit';

/** Someone who would read a new report: a default assignee of its labels, an admin or a reviewer, with their key. */
export interface ReportReader {
  user_id: string;
  /** Their current key's opaque id (the one the public company view lists), null when they have none yet. */
  key_id: string | null;
  admin: boolean;
  /** An admin or reviewer: sees every case, not only this report's by assignment. */
  every_case: boolean;
}

/** Who reads a new report before the discloser keeps anyone out (docs/security.md, "Keeping people out"). */
export const reportReadersRepository = {
  /**
   * The company of `urlIdentifier` and the readers of a report of `categoryIds`: the labels' default assignees, the
   * admins and the reviewers, current staff only. Undefined for an unknown company.
   */
  async readers(
    db: Queryable,
    urlIdentifier: string,
    categoryIds: readonly string[],
  ): Promise<{ companyId: string; readers: ReportReader[] } | undefined> {
    const { rows } = await db.query<{ company_id: string; readers: ReportReader[] }>(
      `select c.id as company_id, coalesce((
                select json_agg(json_build_object('user_id', s.user_id, 'key_id', k.key_id,
                                                  'admin', 'ADMIN' = any(s.roles),
                                                  'every_case', s.roles && array['ADMIN', 'REVIEWER']))
                  from incident.staff_member s
                  left join incident.staff_key k on k.user_id = s.user_id and k.company_id = s.company_id
                 where s.company_id = c.id and s.removed_at is null
                   and (s.roles && array['ADMIN', 'REVIEWER'] or exists (
                     select 1 from incident.category l
                      where l.company_id = c.id and l.id = any($2::uuid[]) and s.user_id = any(l.assignee_ids)))
              ), '[]') as readers
         from incident.company c where c.url_identifier = $1`,
      [urlIdentifier, categoryIds],
      { name: 'incident-report-readers' },
    );
    const row = rows[0];
    return row && { companyId: row.company_id, readers: row.readers };
  },
};
