import type { IncidentFilter, IncidentOutcome, IncidentStatus, ReportChannel } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { intervalParam, type CalendarLength } from './sql-interval';

/** What a status change does to the case's clock columns (the domain's ClockChange). */
export interface StatusClockChange {
  acknowledges: boolean;
  closes: boolean;
  reopens: boolean;
  feedbackDueIn: CalendarLength | null;
  resolutionDueIn: CalendarLength | null;
}

/** Which cases a caller may see (domain/access/staff-access.ts builds it from the verified token). */
export interface CaseScopeParams {
  companyId: string;
  userId: string;
  /** ADMIN and REVIEWER: every case of the company; otherwise only those assigned to `userId`. */
  everyCase: boolean;
}

/** A case as the staff list and detail read it: what the server may see, and the browser's ciphertexts. */
export interface CaseRow {
  id: string;
  company_id: string;
  display_report_number: number;
  status: IncidentStatus;
  outcome: IncidentOutcome | null;
  report_channel: ReportChannel;
  report_anonymously: boolean;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
  location_id: string;
  location_name: string;
  public_key: string;
  aes_encrypted_private_key: string;
  aes_salt: string;
  aes_iv: string;
  company_encrypted_passphrase: string | null;
  /** The encrypted `full_name` field, when one was given. */
  full_name: string | null;
  acknowledgement_due_at: Date;
  feedback_due_at: Date;
  resolution_due_at: Date;
  acknowledged_at: Date | null;
  feedback_at: Date | null;
  closed_at: Date | null;
  /** The staff member who recorded a report taken by telephone or in a meeting (art. 18); null for the others. */
  recorded_by: string | null;
  /** When the reporter approved that record (their session), if they did. */
  record_approved_at: Date | null;
}

const CASE_COLUMNS = `i.id, i.company_id, i.display_report_number, i.status, i.outcome, i.report_channel,
  i.report_anonymously, i.created_at, i.updated_at, i.last_activity_at, i.location_id, l.name as location_name,
  i.public_key, i.aes_encrypted_private_key, i.aes_salt, i.aes_iv, i.company_encrypted_passphrase,
  (select f.value from incident.incident_field f where f.incident_id = i.id and f.name = 'full_name') as full_name,
  i.acknowledgement_due_at, i.feedback_due_at, i.resolution_due_at, i.acknowledged_at, i.feedback_at, i.closed_at,
  i.recorded_by, i.record_approved_at`;

const ORDER_BY: Record<string, string> = {
  last_activity_at: 'i.last_activity_at asc, i.id asc',
  '-last_activity_at': 'i.last_activity_at desc, i.id desc',
  created: 'i.created_at asc, i.id asc',
  '-created': 'i.created_at desc, i.id desc',
  category__name: 'i.sort_category asc, i.id asc',
  '-category__name': 'i.sort_category desc, i.id desc',
  // The earliest running deadline (kept by the incident_next_due trigger); cases with none, closed ones, last.
  next_due_at: 'i.next_due_at asc nulls last, i.id asc',
  '-next_due_at': 'i.next_due_at desc nulls last, i.id desc',
};

/** Whether the cases are found from the caller's caseload (their assigned cases) rather than the company's indexes. */
const readsCaseload = (scope: CaseScopeParams, filter: IncidentFilter) =>
  !scope.everyCase || Boolean(filter.assigned_to_me);

/** SQL conditions for the scope and the filters, with their parameters ($1 company, $2 caller). */
function visibleCases(scope: CaseScopeParams, filter: IncidentFilter = {}): { where: string; params: unknown[] } {
  const params: unknown[] = [scope.companyId, scope.userId];
  const conditions = [
    'i.company_id = $1',
    // The caller's exclusions are read once (a few ids at most), not probed per case: as an anti-join the
    // planner looped over the exclusion table for each of a tenant's cases (docs/performance.md).
    'i.id <> all(array(select x.incident_id from incident.exclusion x where x.company_id = $1 and x.user_id = $2))',
  ];
  // Also read once: a caseload is a small part of a tenant, so the query starts from it (primary key lookups)
  // instead of probing the assignees of every case in a sort order.
  const assignedToCaller =
    'i.id = any(array(select a.incident_id from incident.assignee a where a.company_id = $1 and a.user_id = $2))';
  if (readsCaseload(scope, filter)) conditions.push(assignedToCaller);
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (filter.status?.length) add((p) => `i.status = any(${p}::text[])`, filter.status);
  if (filter.channel?.length) add((p) => `i.report_channel = any(${p}::text[])`, filter.channel);
  if (filter.location?.length) add((p) => `i.location_id = any(${p}::uuid[])`, filter.location);
  if (filter.category?.length)
    add(
      (p) =>
        `exists (select 1 from incident.incident_category ic where ic.incident_id = i.id and ic.category_id = any(${p}::uuid[]))`,
      filter.category,
    );
  // Read once like the caseload: a few people's cases, not a probe per case in a sort order.
  if (filter.assignee?.length)
    add(
      (p) =>
        `i.id = any(array(select a.incident_id from incident.assignee a where a.company_id = $1 and a.user_id = any(${p}::uuid[])))`,
      filter.assignee,
    );
  if (filter.unassigned !== undefined)
    conditions.push(
      `${filter.unassigned ? 'not ' : ''}exists (select 1 from incident.assignee a where a.incident_id = i.id)`,
    );
  if (filter.incident?.length) add((p) => `i.id = any(${p}::uuid[])`, filter.incident);
  if (filter.report_number !== undefined) add((p) => `i.display_report_number = ${p}::integer`, filter.report_number);
  if (filter.overdue === true) conditions.push('i.next_due_at < now()');
  if (filter.overdue === false) conditions.push('(i.next_due_at is null or i.next_due_at >= now())');
  return { where: conditions.join(' and '), params };
}

export const caseRepository = {
  /**
   * One page of the cases the scope sees, in `sort` order (every order is index-backed within a company). When they
   * are found from the caller's caseload, each row also says how many cases match (`matching`): the caseload's cases
   * are read by primary key to be sorted anyway, so they are counted in the same pass instead of read again by
   * `count` (938 lookups each time for a handler with 1 % of 100,000 cases, docs/performance.md).
   */
  async page(
    db: Queryable,
    scope: CaseScopeParams,
    filter: IncidentFilter,
    sort: string,
    page: { offset: number; limit: number },
  ): Promise<(CaseRow & { matching?: number })[]> {
    const { where, params } = visibleCases(scope, filter);
    const counted = readsCaseload(scope, filter);
    // The page's ids first, from the sort's index alone; only then the wide columns, the location and the
    // name field of those 20 rows. Selecting them in one step made PostgreSQL build every skipped row too:
    // page 200 read 4,000 rows' key material and ran the name subquery 4,000 times (57–326 ms against 1–2 ms
    // at 1,000,000 cases, docs/performance.md).
    const { rows } = await db.query<CaseRow & { matching?: string }>(
      `with page as (
         select i.id${counted ? ', count(*) over () as matching' : ''} from incident.incident i
          where ${where} order by ${ORDER_BY[sort]} limit $${params.length + 1} offset $${params.length + 2})
       select ${CASE_COLUMNS}${counted ? ', page.matching' : ''} from page join incident.incident i on i.id = page.id
         join incident.location l on l.id = i.location_id
        order by ${ORDER_BY[sort]}`,
      [...params, page.limit, page.offset],
    );
    return rows.map(({ matching, ...row }) => (matching === undefined ? row : { ...row, matching: Number(matching) }));
  },

  /** How many cases the scope sees with these filters, counting no further than `limit` when one is given. */
  async count(db: Queryable, scope: CaseScopeParams, filter: IncidentFilter, limit?: number): Promise<number> {
    const { where, params } = visibleCases(scope, filter);
    const bounded = limit === undefined ? '' : `limit $${params.length + 1}`;
    const { rows } = await db.query<{ count: string }>(
      `select count(*) as count from (select 1 from incident.incident i where ${where} ${bounded}) matching`,
      limit === undefined ? params : [...params, limit],
    );
    return Number(rows[0]?.count ?? 0);
  },

  /** The case if the scope sees it; undefined for an unknown id, another company's or one the caller may not see. */
  async find(db: Queryable, scope: CaseScopeParams, incidentId: string): Promise<CaseRow | undefined> {
    const { where, params } = visibleCases(scope);
    const { rows } = await db.query<CaseRow>(
      `select ${CASE_COLUMNS} from incident.incident i join incident.location l on l.id = i.location_id
        where ${where} and i.id = $${params.length + 1}`,
      [...params, incidentId],
    );
    return rows[0];
  },

  /** Number and status of the cases among `incidentIds` that the scope sees, by number (linked cases). */
  async visibleAmong(db: Queryable, scope: CaseScopeParams, incidentIds: readonly string[]) {
    if (incidentIds.length === 0) return [];
    const { where, params } = visibleCases(scope);
    const { rows } = await db.query<{ id: string; display_report_number: number; status: IncidentStatus }>(
      `select i.id, i.display_report_number, i.status from incident.incident i
        where ${where} and i.id = any($${params.length + 1}::uuid[]) order by i.display_report_number`,
      [...params, incidentIds],
    );
    return rows;
  },

  /** Labels of each case among `incidentIds`, names as the cases keep them. */
  async categoriesOf(db: Queryable, companyId: string, incidentIds: readonly string[]) {
    const { rows } = await db.query<{ incident_id: string; uuid: string; name: string; parent_uuid: string | null }>(
      `select ic.incident_id, c.id as uuid, c.name, c.parent_id as parent_uuid
         from incident.incident_category ic join incident.category c on c.id = ic.category_id
        where c.company_id = $1 and ic.incident_id = any($2::uuid[])
        order by c.parent_id nulls first, c.name`,
      [companyId, incidentIds],
    );
    return rows;
  },

  async statusHistory(db: Queryable, companyId: string, incidentId: string) {
    const { rows } = await db.query<{
      from_status: IncidentStatus | null;
      to_status: IncidentStatus;
      outcome: IncidentOutcome | null;
      motivation: string | null;
      changed_by: string | null;
      changed_by_name: string | null;
      changed_at: Date;
    }>(
      `select h.from_status, h.to_status, h.outcome, h.motivation, h.changed_by, s.full_name as changed_by_name, h.changed_at
         from incident.status_change h left join incident.staff_member s on s.user_id = h.changed_by
        where h.company_id = $1 and h.incident_id = $2 order by h.changed_at, h.id`,
      [companyId, incidentId],
    );
    return rows;
  },

  /**
   * Moves the case to `to` and makes its clocks follow as `clocks` says (domain/cases/legal-clocks.ts,
   * clockChangeOf); the trigger keeps next_due_at.
   */
  async moveStatus(
    db: Queryable,
    companyId: string,
    incidentId: string,
    change: { to: IncidentStatus; outcome: IncidentOutcome | null; clocks: StatusClockChange },
  ): Promise<void> {
    const { clocks } = change;
    await db.query(
      `update incident.incident set
         status = $3,
         outcome = case when $3 = 'CLOSED' then $4 else null end,
         acknowledged_at = case when $5 and acknowledged_at is null then now() else acknowledged_at end,
         feedback_due_at = case when $5 and acknowledged_at is null and $8::interval is not null
                                then now() + $8::interval else feedback_due_at end,
         closed_at = case when $6 then now() when $7 then null else closed_at end,
         reopened_at = case when $7 then now() else reopened_at end,
         resolution_due_at = coalesce(now() + $9::interval, resolution_due_at),
         updated_at = now(),
         last_activity_at = now()
       where company_id = $1 and id = $2`,
      [
        companyId,
        incidentId,
        change.to,
        change.outcome,
        clocks.acknowledges,
        clocks.closes,
        clocks.reopens,
        clocks.feedbackDueIn && intervalParam(clocks.feedbackDueIn),
        clocks.resolutionDueIn && intervalParam(clocks.resolutionDueIn),
      ],
    );
  },

  async recordStatusChange(
    db: Queryable,
    change: {
      id: string;
      incidentId: string;
      companyId: string;
      from: IncidentStatus;
      to: IncidentStatus;
      outcome: IncidentOutcome | null;
      motivation: string | null;
      changedBy: string;
    },
  ): Promise<void> {
    await db.query(
      `insert into incident.status_change (id, incident_id, company_id, from_status, to_status, outcome, motivation, changed_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        change.id,
        change.incidentId,
        change.companyId,
        change.from,
        change.to,
        change.outcome,
        change.motivation,
        change.changedBy,
      ],
    );
  },

  /** The first reply marked as feedback stops the feedback clock. */
  async markFeedbackGiven(db: Queryable, companyId: string, incidentId: string, at: Date): Promise<boolean> {
    const { rowCount } = await db.query(
      `update incident.incident set feedback_at = $3, updated_at = now()
        where company_id = $1 and id = $2 and feedback_at is null`,
      [companyId, incidentId, at],
    );
    return rowCount > 0;
  },

  /** Replaces the case's labels (already checked to be the company's active ones) and its sort name. */
  async replaceCategories(db: Queryable, companyId: string, incidentId: string, categoryIds: readonly string[]) {
    await db.query('delete from incident.incident_category where incident_id = $1', [incidentId]);
    await db.query('insert into incident.incident_category (incident_id, category_id) select $1, unnest($2::uuid[])', [
      incidentId,
      categoryIds,
    ]);
    await db.query(
      `update incident.incident i set updated_at = now(), sort_category = coalesce((
         select c.name from incident.incident_category ic join incident.category c on c.id = ic.category_id
          where ic.incident_id = i.id and c.parent_id is null order by c.name limit 1), '')
        where i.company_id = $1 and i.id = $2`,
      [companyId, incidentId],
    );
  },

  /** What events about cases carry: number, status, outcome, labels (ids only). */
  async summaries(db: Queryable, companyId: string, incidentIds: readonly string[]) {
    const { rows } = await db.query<{
      id: string;
      display_report_number: number;
      status: IncidentStatus;
      outcome: IncidentOutcome | null;
      category_ids: string[];
    }>(
      `select i.id, i.display_report_number, i.status, i.outcome,
              coalesce((select array_agg(ic.category_id) from incident.incident_category ic where ic.incident_id = i.id), '{}') as category_ids
         from incident.incident i where i.company_id = $1 and i.id = any($2::uuid[])`,
      [companyId, incidentIds],
    );
    return rows;
  },

  /** Locks the case row until COMMIT: concurrent updates of one case apply one after the other. */
  async lock(db: Queryable, companyId: string, incidentId: string): Promise<void> {
    await db.query('select 1 from incident.incident where company_id = $1 and id = $2 for update', [
      companyId,
      incidentId,
    ]);
  },
};
