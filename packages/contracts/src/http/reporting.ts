import { z } from '../zod';
import { incidentOutcomeSchema } from './case-management';
import { incidentStatusSchema, reportChannelSchema } from './incident';

/*
 * GET /api/incident/reporting?from&to (ADMIN): the company's figures for a period, counted by the server
 * from what it may see (ids, statuses, outcomes, channels, label and location names, timestamps). What each
 * figure means exactly is in docs/case-management.md, "Reporting".
 */

/** The longest period a report covers: enough for multi-year comparisons, bounded so one call stays cheap. */
export const MAX_REPORTING_YEARS = 5;

/** The report channels in the order the figures list them. */
export const reportChannels = reportChannelSchema.options;

const day = z.iso.date({ error: 'Use a date as YYYY-MM-DD' });

/** The calendar date `years` after a YYYY-MM-DD date (29 February lands on 1 March in a common year). */
export function addYears(date: string, years: number): string {
  const shifted = new Date(`${date}T00:00:00Z`);
  shifted.setUTCFullYear(shifted.getUTCFullYear() + years);
  return shifted.toISOString().slice(0, 10);
}

/**
 * The period, both days included, as UTC calendar days (the server's months are UTC months too). At most
 * MAX_REPORTING_YEARS long; unknown parameters are refused, like the list's.
 */
export const reportingQuerySchema = z.strictObject({ from: day, to: day }).superRefine(({ from, to }, ctx) => {
  if (to < from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'The period ends before it starts' });
  else if (to >= addYears(from, MAX_REPORTING_YEARS))
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `The period is at most ${MAX_REPORTING_YEARS} years long`,
    });
});
export type ReportingQuery = z.infer<typeof reportingQuerySchema>;

const count = z.number().int().nonnegative();
/** Cases per channel. */
const channelCountsSchema = z.object({ online: count, telephone: count, internal: count });

/** A median over the cases that have the time in question; null when none has it. */
const medianSchema = z.object({
  /** Days, with decimals (12 hours = 0.5). */
  median_days: z.number().nonnegative().nullable(),
  /** How many cases the median is taken over. */
  cases: count,
});
export type ReportingMedian = z.infer<typeof medianSchema>;

/** A directive figure: of the `counted` cases whose clock stopped or ran out, `met` stopped in time. */
const shareSchema = z.object({
  met: count,
  counted: count,
  /** met / counted, from 0 to 1; null when nothing was counted. */
  share: z.number().min(0).max(1).nullable(),
});
export type ReportingShare = z.infer<typeof shareSchema>;

const namedCountSchema = z.object({ uuid: z.uuid(), name: z.string(), count });

export const reportingResponseSchema = z.object({
  period: z.object({ from: z.iso.date(), to: z.iso.date() }),
  /** Cases received in the period. */
  total: count,
  /** Every month the period touches (UTC, `YYYY-MM`), months without a case included, oldest first. */
  by_month: z.array(z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), channels: channelCountsSchema })),
  /** Cases of the period per top-level label (a sub-label counts for its parent; a case once per label). */
  by_category: z.array(namedCountSchema),
  by_location: z.array(namedCountSchema),
  /** Cases of the period by their status now; every status, zeros included, in the workflow's order. */
  by_status: z.array(z.object({ status: incidentStatusSchema, count })),
  /** Closed cases of the period by outcome; every outcome, zeros included. */
  by_outcome: z.array(z.object({ outcome: incidentOutcomeSchema, count })),
  times: z.object({
    to_acknowledge: medianSchema,
    to_first_feedback: medianSchema,
    to_close: medianSchema,
  }),
  /** EU directive 2019/1937 art. 9(1)(b) and (f), over the cases of the period. */
  directive: z.object({
    acknowledged_within_7_days: shareSchema,
    feedback_within_3_months: shareSchema,
  }),
  /** The company now, whatever the period: cases not closed, and cases with a running clock past due. */
  now: z.object({ open: count, overdue: count, at: z.iso.datetime({ offset: true }) }),
});
export type ReportingResponse = z.infer<typeof reportingResponseSchema>;
