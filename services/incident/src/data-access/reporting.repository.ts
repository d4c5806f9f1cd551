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
 * Every query starts from the company's cases received in the range: an index-only range scan on
 * incident_reporting_idx (company_id, created_at, with the columns read here), the caller's exclusions read
 * once (as the list does).
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
   * Counts by month and channel, status, outcome and location, rolled up here from one pass over the period's
   * cases grouped by all five at once: a hash aggregate into a few hundred groups, where GROUPING SETS sorted
   * the whole period once per set (docs/performance.md).
   */
  async counts(db: Queryable, scope: ReportingScope, range: ReportingRange): Promise<ReportingCounts> {
    const { rows } = await db.query<{
      month: string;
      report_channel: ReportChannel;
      status: IncidentStatus;
      outcome: IncidentOutcome | null;
      location_id: string;
      count: number;
    }>(
      `select to_char(g.month, 'YYYY-MM') as month, g.report_channel, g.status, g.outcome, g.location_id, g.count
         from (select date_trunc('month', i.created_at, 'UTC') as month, i.report_channel, i.status, i.outcome,
                      i.location_id, count(*)::int as count
                 from incident.incident i
                where ${CASES_OF_PERIOD}
                group by 1, 2, 3, 4, 5) g`,
      paramsOf(scope, range),
    );
    const add = <K>(totals: Map<K, number>, key: K, count: number) => totals.set(key, (totals.get(key) ?? 0) + count);
    const byMonth = new Map<string, number>();
    const byStatus = new Map<IncidentStatus, number>();
    const byOutcome = new Map<IncidentOutcome, number>();
    const byLocation = new Map<string, number>();
    for (const row of rows) {
      add(byMonth, `${row.month}|${row.report_channel}`, row.count);
      add(byStatus, row.status, row.count);
      // Cases not closed have no outcome.
      if (row.outcome !== null) add(byOutcome, row.outcome, row.count);
      add(byLocation, row.location_id, row.count);
    }
    const names = await locationNames(db, scope.companyId, [...byLocation.keys()]);
    return {
      byMonth: [...byMonth].map(([key, count]) => {
        const [month, channel] = key.split('|') as [string, ReportChannel];
        return { month, channel, count };
      }),
      byStatus: [...byStatus].map(([status, count]) => ({ status, count })),
      byOutcome: [...byOutcome].map(([outcome, count]) => ({ outcome, count })),
      byLocation: [...byLocation].map(([uuid, count]) => ({ uuid, name: names.get(uuid) ?? '', count })),
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
