/* eslint-disable max-lines -- the reporting figures' queries, built from SQL fragments they all share. */
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
  total: number;
  byMonth: { month: string; channel: ReportChannel; count: number }[];
  byStatus: { status: IncidentStatus; count: number }[];
  byOutcome: { outcome: IncidentOutcome; count: number }[];
  byLocation: { uuid: string; name: string; count: number }[];
  byCategory: { uuid: string; name: string; count: number }[];
  /** The directive's shares: clocks stopped in time, and clocks stopped or run out by `now`. */
  ack_met: number;
  ack_counted: number;
  feedback_met: number;
  feedback_counted: number;
}

export interface ReportingMedians {
  ack_median_s: number | null;
  ack_cases: number;
  feedback_median_s: number | null;
  feedback_cases: number;
  close_median_s: number | null;
  close_cases: number;
}

/*
 * The caller's exclusions (conflict of interest), read once per statement (as the list does); the cases of the
 * period, for the few reads that go to the cases themselves.
 */
const EXCLUDED_IDS = 'array(select x.incident_id from incident.exclusion x where x.company_id = $1 and x.user_id = $2)';
const CASES_OF_PERIOD = `i.company_id = $1 and i.created_at >= $3 and i.created_at < $4 and i.id <> all(${EXCLUDED_IDS})`;

const paramsOf = (scope: ReportingScope, range: ReportingRange) => [
  scope.companyId,
  scope.userId,
  range.start,
  range.end,
];
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

// A clock still running, as the case page's clocks say (domain/cases/legal-clocks.ts): not acknowledged or fed back,
// and not closed (closing stops every running clock; a reopened case has no closed_at and its clocks run again).
// The same rules as incident.reporting_case_facts (migrations 008 and 009).
const ACK_PENDING = `i.acknowledged_at is null and (i.status <> 'CLOSED' or i.closed_at is null)`;
const FEEDBACK_PENDING = `i.feedback_at is null and (i.status <> 'CLOSED' or i.closed_at is null)`;

// Dimensions that now() and medians() read themselves.
const OWN_READS = `array['next_due', 'ack_time', 'feedback_time', 'close_time']`;

/** The clocks whose medians are given: the summary's dimension of their time buckets, when a case's clock stopped. */
const CLOCKS = {
  ack: {
    dimension: 'ack_time',
    bucket: 'i.ack_time_bucket',
    stoppedAt: 'i.acknowledged_at',
    stopped: 'i.acknowledged_at is not null',
  },
  feedback: {
    dimension: 'feedback_time',
    bucket: 'i.feedback_time_bucket',
    stoppedAt: 'i.feedback_at',
    stopped: 'i.feedback_at is not null',
  },
  close: {
    dimension: 'close_time',
    bucket: 'i.close_time_bucket',
    stoppedAt: 'i.closed_at',
    stopped: `i.status = 'CLOSED' and i.closed_at is not null`,
  },
} as const;

/**
 * The exact median of a clock's times over the period (percentile_cont(0.5): the middle value, or the two middle
 * ones to interpolate), in one statement so all of it is one snapshot. The summary's buckets (with the deltas,
 * less the caller's excluded cases) give how many times there are and in which bucket the middle ranks fall;
 * only that bucket's cases of the period are then read, from the clock's index (incident_ack_time_idx …), and
 * sorted by their interval (in the order of their seconds; only the one or two taken are turned into seconds,
 * a numeric's conversion to float8 being what costs most) to take the value at the rank within it. The bucket is
 * the stored column (migration 013), not its expression: in a company's scope only a leakproof comparison reaches
 * the index. Answers the count, and one row per middle rank with its time, in order.
 */
const medianOf = ({ dimension, bucket, stoppedAt, stopped }: (typeof CLOCKS)[keyof typeof CLOCKS]) => `
  with buckets as (
         select f.bucket::int as bucket, sum(f.count)::int as n
           from (select s.value, s.count from incident.reporting_summary s
                  where s.company_id = $1 and s.dimension = '${dimension}' and s.day >= $5::date and s.day < $6::date
                 union all
                 select d.value, d.change from incident.reporting_delta d
                  where d.company_id = $1 and d.dimension = '${dimension}' and d.day >= $5::date and d.day < $6::date
                 union all
                 select ${bucket}::text, -1 from incident.incident i
                  where i.company_id = $1 and i.id = any(${EXCLUDED_IDS}) and ${stopped}
                    and i.created_at >= $3 and i.created_at < $4
                ) f(bucket, count)
          group by f.bucket having sum(f.count) <> 0),
       ranked as (select bucket, n, (sum(n) over (order by bucket) - n)::int as before from buckets),
       total as (select coalesce(sum(n), 0)::int as n from buckets),
       middle as (select distinct r.rank from total,
                    unnest(array[floor((total.n - 1) / 2.0), ceil((total.n - 1) / 2.0)]::int[]) r(rank)
                   where total.n > 0),
       wanted as (select b.bucket, min(m.rank) - b.before as skip, count(*)::int as take
                    from middle m join ranked b on m.rank >= b.before and m.rank < b.before + b.n
                   group by b.bucket, b.before)
  select total.n as cases, extract(epoch from v.time)::float8 as seconds
    from total
    left join wanted w on true
    left join lateral (
          select ${stoppedAt} - i.created_at as time from incident.incident i
           where i.company_id = $1 and ${stopped} and ${bucket} = w.bucket
             and i.created_at >= $3 and i.created_at < $4 and i.id <> all(${EXCLUDED_IDS})
           order by 1 offset w.skip limit w.take) v on true
   order by 2`;

/**
 * The period's figures from the per-day summary (migration 008): its rows, the deltas not folded into it yet,
 * and, taken off, what the caller's excluded cases of the period add (read from their rows: a few). Summed by
 * dimension and value; channels also by month, and the running clocks also by the day their case came in
 * (see pendingDueToday).
 */
const PERIOD_FIGURES = `
  select f.dimension, f.value, p.part, sum(f.count)::int as count
    from (select s.dimension, s.value, s.day, s.count from incident.reporting_summary s
           where s.company_id = $1 and s.day >= $3::date and s.day < $4::date and s.dimension <> all(${OWN_READS})
          union all
          select d.dimension, d.value, d.day, d.change from incident.reporting_delta d
           where d.company_id = $1 and d.day >= $3::date and d.day < $4::date and d.dimension <> all(${OWN_READS})
          union all
          select e.dimension, e.value, incident.reporting_day(i.created_at), -1
            from incident.incident i cross join lateral incident.reporting_case_facts(i) e
           where i.company_id = $1 and i.id = any(${EXCLUDED_IDS})
             and incident.reporting_day(i.created_at) >= $3::date and incident.reporting_day(i.created_at) < $4::date
          union all
          select 'label', top::text, incident.reporting_day(i.created_at), -1
            from incident.incident i cross join lateral incident.reporting_case_labels(i.id) top
           where i.company_id = $1 and i.id = any(${EXCLUDED_IDS})
             and incident.reporting_day(i.created_at) >= $3::date and incident.reporting_day(i.created_at) < $4::date
         ) f(dimension, value, day, count)
   cross join lateral (select case when f.dimension = 'channel' then to_char(f.day, 'YYYY-MM')
                                   when f.dimension in ('ack_pending_due', 'feedback_pending_due') then to_char(f.day, 'YYYY-MM-DD')
                                   else '' end as part) p
   group by f.dimension, f.value, p.part
  having sum(f.count) <> 0`;

export const reportingRepository = {
  /**
   * Every count of the period (month and channel, status, outcome, location, top-level label, the directive's
   * shares) from the summary: a few rows per day of the period, whatever the number of cases.
   */
  async counts(db: Queryable, scope: ReportingScope, range: ReportingRange, now: Date): Promise<ReportingCounts> {
    const { rows } = await db.query<{ dimension: string; value: string; part: string; count: number }>(PERIOD_FIGURES, [
      scope.companyId,
      scope.userId,
      dayOf(range.start),
      dayOf(range.end),
    ]);
    const add = <K>(totals: Map<K, number>, key: K, count: number) => totals.set(key, (totals.get(key) ?? 0) + count);
    const byMonth = new Map<string, number>();
    const byStatus = new Map<IncidentStatus, number>();
    const byOutcome = new Map<IncidentOutcome, number>();
    const byLocation = new Map<string, number>();
    const byLabel = new Map<string, number>();
    const stopped = { ack: { met: 0, late: 0 }, feedback: { met: 0, late: 0 } };
    const runOut = { ack: 0, feedback: 0 };
    // Days whose cases have a clock falling due today: whether it ran out depends on the time of day.
    const dueToday = { ack: [] as string[], feedback: [] as string[] };
    const today = dayOf(now);
    let total = 0;
    for (const { dimension, value, part, count } of rows) {
      switch (dimension) {
        case 'channel':
          add(byMonth, `${part}|${value}`, count);
          total += count;
          break;
        case 'status':
          add(byStatus, value as IncidentStatus, count);
          break;
        case 'outcome':
          add(byOutcome, value as IncidentOutcome, count);
          break;
        case 'location':
          add(byLocation, value, count);
          break;
        case 'label':
          add(byLabel, value, count);
          break;
        case 'ack':
        case 'feedback':
          stopped[dimension][value as 'met' | 'late'] += count;
          break;
        case 'ack_pending_due':
        case 'feedback_pending_due': {
          const clock = dimension === 'ack_pending_due' ? 'ack' : 'feedback';
          if (value < today) runOut[clock] += count;
          else if (value === today) dueToday[clock].push(part);
          break;
        }
        case 'next_due':
        case 'ack_time':
        case 'feedback_time':
        case 'close_time':
          // Read by now() and medians(); here only from the excluded cases' facts.
          break;
        default:
          throw new Error(`Unknown reporting dimension ${dimension}`);
      }
    }
    const runOutToday = await pendingDueToday(db, scope, range, now, dueToday);
    const [locations, labels] = await Promise.all([
      namesOf(db, 'location', scope.companyId, [...byLocation.keys()]),
      namesOf(db, 'category', scope.companyId, [...byLabel.keys()]),
    ]);
    return {
      total,
      byMonth: [...byMonth].map(([key, count]) => {
        const [month, channel] = key.split('|') as [string, ReportChannel];
        return { month, channel, count };
      }),
      byStatus: [...byStatus].map(([status, count]) => ({ status, count })),
      byOutcome: [...byOutcome].map(([outcome, count]) => ({ outcome, count })),
      byLocation: [...byLocation].map(([uuid, count]) => ({ uuid, name: locations.get(uuid) ?? '', count })),
      // A label the read model does not have (yet) is not shown, as a join would leave it out.
      byCategory: [...byLabel].flatMap(([uuid, count]) => {
        const name = labels.get(uuid);
        return name === undefined ? [] : [{ uuid, name, count }];
      }),
      ack_met: stopped.ack.met,
      ack_counted: stopped.ack.met + stopped.ack.late + runOut.ack + runOutToday.ack,
      feedback_met: stopped.feedback.met,
      feedback_counted: stopped.feedback.met + stopped.feedback.late + runOut.feedback + runOutToday.feedback,
    };
  },

  /** Medians of the times (in seconds) over the period's cases, each from its bucket (see medianOf). */
  async medians(db: Queryable, scope: ReportingScope, range: ReportingRange): Promise<ReportingMedians> {
    const params = [...paramsOf(scope, range), dayOf(range.start), dayOf(range.end)];
    const [ack, feedback, close] = await Promise.all(
      [CLOCKS.ack, CLOCKS.feedback, CLOCKS.close].map(async (clock) => {
        const { rows } = await db.query<{ cases: number; seconds: number | null }>(medianOf(clock), params);
        return interpolated(rows);
      }),
    );
    return {
      ack_median_s: ack!.median,
      ack_cases: ack!.cases,
      feedback_median_s: feedback!.median,
      feedback_cases: feedback!.cases,
      close_median_s: close!.median,
      close_cases: close!.cases,
    };
  },

  /**
   * Folds the deltas written since the last fold into the summary, in batches, in one transaction `tx`; answers
   * how many it folded. One replica at a time (an advisory lock; another finds it taken and leaves the work to
   * it): two folds would wait on each other's summary rows. A delta committed meanwhile waits for the next fold.
   */
  async fold(tx: Queryable, batchSize: number): Promise<number> {
    const { rows: lock } = await tx.query<{ locked: boolean }>(
      "select pg_try_advisory_xact_lock(hashtextextended('incident.reporting_summary', 0)) as locked",
    );
    if (!lock[0]!.locked) return 0;
    let folded = 0;
    for (;;) {
      const { rows } = await tx.query<{
        taken: number;
        zero: { company_id: string; day: string; dimension: string; value: string }[] | null;
      }>(
        `with taken as (
           delete from incident.reporting_delta
            where ctid = any(array(select ctid from incident.reporting_delta limit $1))
           returning company_id, day, dimension, value, change),
         summed as (
           select company_id, day, dimension, value, sum(change)::int as change from taken
            group by company_id, day, dimension, value having sum(change) <> 0),
         upserted as (
           insert into incident.reporting_summary as s (company_id, day, dimension, value, count)
           select company_id, day, dimension, value, change from summed
           on conflict (company_id, day, dimension, value) do update set count = s.count + excluded.count
           returning s.company_id, s.day, s.dimension, s.value, s.count)
         select (select count(*) from taken)::int as taken,
                (select json_agg(json_build_object('company_id', company_id, 'day', day, 'dimension', dimension,
                                                   'value', value))
                   from upserted where count = 0) as zero`,
        [batchSize],
      );
      const { taken, zero } = rows[0]!;
      // Rows counting nothing any more (a running clock that stopped, a status left) are not kept.
      if (zero)
        await tx.query(
          `delete from incident.reporting_summary s
            using json_to_recordset($1::json) as z(company_id uuid, day date, dimension text, value text)
            where s.company_id = z.company_id and s.day = z.day and s.dimension = z.dimension and s.value = z.value
              and s.count = 0`,
          [JSON.stringify(zero)],
        );
      folded += taken;
      if (taken < batchSize) return folded;
    }
  },

  /**
   * The company now, whatever the period: cases not closed (the status rows of every day of the summary) and
   * cases with a running clock past due (the list's overdue filter): the next_due rows of the days before today,
   * plus the cases falling due today before now, read from incident_next_due_idx. Less the caller's exclusions.
   */
  async now(db: Queryable, scope: ReportingScope, now: Date): Promise<{ open: number; overdue: number }> {
    const { rows } = await db.query<{ open: number; overdue: number }>(
      `with f as (
         select f.dimension, f.value, sum(f.count) as count
           from (select s.dimension, s.value, s.count from incident.reporting_summary s
                  where s.company_id = $1 and s.dimension in ('status', 'next_due')
                 union all
                 select d.dimension, d.value, d.change from incident.reporting_delta d
                  where d.company_id = $1 and d.dimension in ('status', 'next_due')
                 union all
                 select e.dimension, e.value, -1
                   from incident.incident i cross join lateral incident.reporting_case_facts(i) e
                  where i.company_id = $1 and i.id = any(${EXCLUDED_IDS}) and e.dimension in ('status', 'next_due')
                ) f(dimension, value, count)
          group by f.dimension, f.value)
       select coalesce(sum(f.count) filter (where f.dimension = 'status' and f.value <> 'CLOSED'), 0)::int as open,
              (coalesce(sum(f.count) filter (where f.dimension = 'next_due' and f.value < $3), 0)
               + (select count(*) from incident.incident i
                   where i.company_id = $1 and i.next_due_at >= $4::date::timestamp at time zone 'UTC'
                     and i.next_due_at < $5 and i.id <> all(${EXCLUDED_IDS})))::int as overdue
         from f`,
      [scope.companyId, scope.userId, dayOf(now), dayOf(now), now],
    );
    return rows[0]!;
  },
};

/**
 * percentile_cont(0.5) from the middle value(s), as PostgreSQL computes it in float8: the one middle value, or
 * the lower plus half the distance to the upper.
 */
function interpolated(rows: { cases: number; seconds: number | null }[]) {
  const cases = rows[0]!.cases;
  if (cases === 0) return { cases, median: null };
  const [lower, upper = lower] = rows.map((row) => row.seconds);
  // The summary and the cases are read in one snapshot: a rank without its case would be a broken summary.
  if (lower === null || lower === undefined || upper === null || upper === undefined)
    throw new Error('Reporting summary and cases disagree');
  return { cases, median: rows.length === 1 ? lower : lower + (upper - lower) * 0.5 };
}

/**
 * Who passes for a running clock falling due today ran out by `now`: read from the cases of the few days given.
 * Each day's bounds are the received subquery's columns (its DISTINCT keeps it from being flattened): in a
 * company's scope a join condition that calls a function not marked LEAKPROOF (the casts, AT TIME ZONE) is kept
 * after the policy, and every case of the company was read to find the day's (108 ms instead of 0.2 ms at
 * 100,000 cases); a comparison of two columns reaches the index.
 */
async function pendingDueToday(
  db: Queryable,
  scope: ReportingScope,
  range: ReportingRange,
  now: Date,
  days: { ack: string[]; feedback: string[] },
): Promise<{ ack: number; feedback: number }> {
  if (days.ack.length + days.feedback.length === 0) return { ack: 0, feedback: 0 };
  const { rows } = await db.query<{ ack: number; feedback: number }>(
    `select count(*) filter (where received.day = any($6::date[]) and ${ACK_PENDING}
                               and i.acknowledgement_due_at >= $7::date::timestamp at time zone 'UTC' and i.acknowledgement_due_at <= $5)::int as ack,
            count(*) filter (where received.day = any($8::date[]) and ${FEEDBACK_PENDING}
                               and i.feedback_due_at >= $7::date::timestamp at time zone 'UTC' and i.feedback_due_at <= $5)::int as feedback
       from (select distinct day, day::timestamp at time zone 'UTC' as starts, (day + 1)::timestamp at time zone 'UTC' as ends
               from unnest($6::date[] || $8::date[]) day) received
       join incident.incident i on i.created_at >= received.starts and i.created_at < received.ends
      where ${CASES_OF_PERIOD}`,
    [...paramsOf(scope, range), now, days.ack, dayOf(now), days.feedback],
  );
  return rows[0]!;
}

async function namesOf(
  db: Queryable,
  table: 'location' | 'category',
  companyId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; name: string }>(
    `select id, name from incident.${table} where company_id = $1 and id = any($2::uuid[])`,
    [companyId, ids],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}
