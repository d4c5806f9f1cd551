import {
  incidentOutcomes,
  incidentStatuses,
  reportChannels,
  type ReportChannel,
  type ReportingQuery,
  type ReportingResponse,
} from '@whistle/contracts';
import { NotAllowedError, type Database } from '@whistle/service-kit';
import { reportingRepository } from '../../data-access/reporting.repository';
import type { StaffViewer } from '../access/staff-access';

const DAY_S = 24 * 60 * 60;

/** Every UTC month from `from`'s to `to`'s, as `YYYY-MM`. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  const last = to.slice(0, 7);
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    months.push(key);
    if (key >= last) return months;
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
  }
}

const days = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / DAY_S) * 100) / 100);
const share = (met: number, counted: number) => ({
  met,
  counted,
  share: counted === 0 ? null : met / counted,
});
const byCountThenName = (a: { count: number; name: string }, b: { count: number; name: string }) =>
  b.count - a.count || a.name.localeCompare(b.name);

/**
 * GET /api/incident/reporting (ADMIN only): the company's figures for a period, all counted in PostgreSQL from
 * what the server may see. Cases the caller is excluded from are left out of every figure, as from the list:
 * a count by label, place and month can point at a single case.
 */
export async function companyReport(
  db: Database,
  viewer: StaffViewer,
  { from, to }: ReportingQuery,
  now = new Date(),
): Promise<ReportingResponse> {
  if (!viewer.roles.includes('ADMIN')) throw new NotAllowedError('Reporting is for admins');
  const scope = { companyId: viewer.companyId, userId: viewer.userId };
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  const range = { start: new Date(`${from}T00:00:00Z`), end };
  // Independent reads: a pool runs them side by side; PGlite (one connection) queues them.
  const [counts, times, current] = await Promise.all([
    reportingRepository.counts(db, scope, range, now),
    reportingRepository.medians(db, scope, range),
    reportingRepository.now(db, scope, now),
  ]);

  const perMonth = new Map<string, Record<ReportChannel, number>>();
  for (const month of monthsOf(from, to))
    perMonth.set(
      month,
      Object.fromEntries(reportChannels.map((channel) => [channel, 0])) as Record<ReportChannel, number>,
    );
  for (const row of counts.byMonth) {
    const channels = perMonth.get(row.month);
    if (channels) channels[row.channel] = row.count;
  }
  const statusCount = new Map(counts.byStatus.map((row) => [row.status, row.count]));
  const outcomeCount = new Map(counts.byOutcome.map((row) => [row.outcome, row.count]));
  return {
    period: { from, to },
    total: counts.total,
    by_month: [...perMonth].map(([month, channels]) => ({ month, channels })),
    by_category: [...counts.byCategory].sort(byCountThenName),
    by_location: [...counts.byLocation].sort(byCountThenName),
    by_status: incidentStatuses.map((status) => ({ status, count: statusCount.get(status) ?? 0 })),
    by_outcome: incidentOutcomes.map((outcome) => ({ outcome, count: outcomeCount.get(outcome) ?? 0 })),
    times: {
      to_acknowledge: { median_days: days(times.ack_median_s), cases: times.ack_cases },
      to_first_feedback: { median_days: days(times.feedback_median_s), cases: times.feedback_cases },
      to_close: { median_days: days(times.close_median_s), cases: times.close_cases },
    },
    directive: {
      acknowledged_within_7_days: share(counts.ack_met, counts.ack_counted),
      feedback_within_3_months: share(counts.feedback_met, counts.feedback_counted),
    },
    now: { ...current, at: now.toISOString() },
  };
}
