import type { IncidentOutcome, IncidentStatus, ReportChannel } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/** Whose figures: the company's cases, less those the caller is excluded from (conflict of interest). */
export interface ReportingScope {
  companyId: string;
  userId: string;
}

/** Cases received in [start, end): UTC instants, end excluded. */
export interface ReportingRange {
  start: Date;
  end: Date;
}

export interface ReportingCounts {
  byMonth: { month: string; channel: ReportChannel; count: number }[];
  byStatus: { status: IncidentStatus; count: number }[];
  byOutcome: { outcome: IncidentOutcome; count: number }[];
  byLocation: { uuid: string; name: string; count: number }[];
}

export interface ReportingTimes {
  total: number;
  ack_median_s: number | null;
  ack_cases: number;
  feedback_median_s: number | null;
  feedback_cases: number;
  close_median_s: number | null;
  close_cases: number;
  ack_met: number;
  ack_counted: number;
  feedback_met: number;
  feedback_counted: number;
}

/*
 * Every query starts from the company's cases received in the range: an index range on
 * incident_created_idx (company_id, created_at), the caller's exclusions read once (as the list does).
 */
const CASES_OF_PERIOD = `i.company_id = $1 and i.created_at >= $3 and i.created_at < $4
  and i.id <> all(array(select x.incident_id from incident.exclusion x where x.company_id = $1 and x.user_id = $2))`;

const paramsOf = (scope: ReportingScope, range: ReportingRange) => [
  scope.companyId,
  scope.userId,
  range.start,
  range.end,
];

// When a clock stopped, as the case page's clocks say (domain/cases/clocks.ts): acknowledged or fed back, or
// closed (closing stops every running clock; a reopened case has no closed_at and its clocks run again).
const CLOSED_AT = `case when i.status = 'CLOSED' then i.closed_at end`;
const ACK_DONE = `coalesce(i.acknowledged_at, ${CLOSED_AT})`;
const FEEDBACK_DONE = `coalesce(i.feedback_at, ${CLOSED_AT})`;
const seconds = (from: string, to: string) => `extract(epoch from (${to} - ${from}))`;

export const reportingRepository = {
  /**
   * Counts by month and channel, status, outcome and location in one pass over the period's cases
   * (grouping sets); `grouping()` tells which set a row belongs to.
   */
  async counts(db: Queryable, scope: ReportingScope, range: ReportingRange): Promise<ReportingCounts> {
    const { rows } = await db.query<{
      set: number;
      month: string | null;
      report_channel: ReportChannel | null;
      status: IncidentStatus | null;
      outcome: IncidentOutcome | null;
      location_id: string | null;
      count: number;
    }>(
      `select grouping(month, i.report_channel, i.status, i.outcome, i.location_id)::int as set,
              month, i.report_channel, i.status, i.outcome, i.location_id, count(*)::int as count
         from incident.incident i,
              lateral (select to_char(i.created_at at time zone 'UTC', 'YYYY-MM') as month) m
        where ${CASES_OF_PERIOD}
        group by grouping sets ((month, i.report_channel), (i.status), (i.outcome), (i.location_id))`,
      paramsOf(scope, range),
    );
    // grouping() sets a bit per column left out, the first column the highest (16 = month ... 1 = location).
    const BY_MONTH = 0b00111;
    const BY_STATUS = 0b11011;
    const BY_OUTCOME = 0b11101;
    const BY_LOCATION = 0b11110;
    const locationCounts = rows.filter((row) => row.set === BY_LOCATION);
    const names = await locationNames(
      db,
      scope.companyId,
      locationCounts.map((row) => row.location_id!),
    );
    return {
      byMonth: rows
        .filter((row) => row.set === BY_MONTH)
        .map((row) => ({ month: row.month!, channel: row.report_channel!, count: row.count })),
      byStatus: rows.filter((row) => row.set === BY_STATUS).map((row) => ({ status: row.status!, count: row.count })),
      // Cases not closed have no outcome: the null group is left out.
      byOutcome: rows
        .filter((row) => row.set === BY_OUTCOME && row.outcome !== null)
        .map((row) => ({ outcome: row.outcome!, count: row.count })),
      byLocation: locationCounts.map((row) => ({
        uuid: row.location_id!,
        name: names.get(row.location_id!) ?? '',
        count: row.count,
      })),
    };
  },

  /**
   * Cases of the period per top-level label, from the labels' read model: a sub-label counts for its parent,
   * and a case carrying a label and its sub-label counts once for it.
   */
  async byCategory(db: Queryable, scope: ReportingScope, range: ReportingRange) {
    const { rows } = await db.query<{ uuid: string; name: string; count: number }>(
      `select top.id as uuid, top.name, count(distinct ic.incident_id)::int as count
         from incident.incident i
         join incident.incident_category ic on ic.incident_id = i.id
         join incident.category label on label.id = ic.category_id
         join incident.category top on top.id = coalesce(label.parent_id, label.id)
        where ${CASES_OF_PERIOD}
        group by top.id, top.name`,
      paramsOf(scope, range),
    );
    return rows;
  },

  /** Medians of the times (in seconds) and the directive's two shares over the period's cases. */
  async times(db: Queryable, scope: ReportingScope, range: ReportingRange, now: Date): Promise<ReportingTimes> {
    const { rows } = await db.query<ReportingTimes>(
      `select count(*)::int as total,
              percentile_cont(0.5) within group (order by ${seconds('i.created_at', 'i.acknowledged_at')})
                filter (where i.acknowledged_at is not null) as ack_median_s,
              count(i.acknowledged_at)::int as ack_cases,
              percentile_cont(0.5) within group (order by ${seconds('i.created_at', 'i.feedback_at')})
                filter (where i.feedback_at is not null) as feedback_median_s,
              count(i.feedback_at)::int as feedback_cases,
              percentile_cont(0.5) within group (order by ${seconds('i.created_at', CLOSED_AT)})
                filter (where ${CLOSED_AT} is not null) as close_median_s,
              count(${CLOSED_AT})::int as close_cases,
              count(*) filter (where ${ACK_DONE} <= i.acknowledgement_due_at)::int as ack_met,
              count(*) filter (where ${ACK_DONE} is not null or i.acknowledgement_due_at <= $5)::int as ack_counted,
              count(*) filter (where ${FEEDBACK_DONE} <= i.feedback_due_at)::int as feedback_met,
              count(*) filter (where ${FEEDBACK_DONE} is not null or i.feedback_due_at <= $5)::int as feedback_counted
         from incident.incident i
        where ${CASES_OF_PERIOD}`,
      [...paramsOf(scope, range), now],
    );
    return rows[0]!;
  },

  /**
   * The company now: cases not closed, and cases with a running clock past due (the list's overdue filter),
   * both from their indexes (incident_status_idx, incident_next_due_idx).
   */
  async now(db: Queryable, scope: ReportingScope, now: Date): Promise<{ open: number; overdue: number }> {
    const { rows } = await db.query<{ open: number; overdue: number }>(
      `with excluded as (select array(select x.incident_id from incident.exclusion x
                                       where x.company_id = $1 and x.user_id = $2) as ids)
       select (select count(*) from incident.incident i, excluded
                where i.company_id = $1 and i.status <> 'CLOSED' and i.id <> all(excluded.ids))::int as open,
              (select count(*) from incident.incident i, excluded
                where i.company_id = $1 and i.next_due_at < $3 and i.id <> all(excluded.ids))::int as overdue`,
      [scope.companyId, scope.userId, now],
    );
    return rows[0]!;
  },
};

async function locationNames(db: Queryable, companyId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; name: string }>(
    'select id, name from incident.location where company_id = $1 and id = any($2::uuid[])',
    [companyId, ids],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}
