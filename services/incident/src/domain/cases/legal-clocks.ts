import {
  ACKNOWLEDGEMENT_DAYS,
  DUE_SOON_DAYS,
  FEEDBACK_MONTHS,
  type ClockState,
  type IncidentClock,
  type IncidentClockName,
  type IncidentClocks,
  type IncidentStatus,
} from '@whistle/contracts';

/*
 * The legal clocks of a case, in one place (docs/case-management.md, "Clocks"): how long each runs, what each
 * status change does to it, and its state on screen. The directive's lengths come from the contracts'
 * ACKNOWLEDGEMENT_DAYS and FEEDBACK_MONTHS (their single source), the resolution's from the company's setting.
 * The repositories receive the lengths as SQL parameters (`$n::interval`) and add them in the statement that
 * writes the case, so PostgreSQL does the calendar arithmetic (a month from 31 January is 28 or 29 February)
 * as it always did; no trigger or function computes a due time, so none needs the lengths.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** A clock's length in calendar units: PostgreSQL adds the months, then the days, to a time. */
export interface ClockLength {
  readonly months: number;
  readonly days: number;
}

/** Acknowledgement is due this long after receipt (directive art. 9(1)(b)). */
export const ACKNOWLEDGEMENT_PERIOD: ClockLength = { months: 0, days: ACKNOWLEDGEMENT_DAYS };

/**
 * Feedback is due this long after acknowledgement (art. 9(1)(f)); at receipt, this long after the
 * acknowledgement's due time, which is when it is due if no acknowledgement is sent.
 */
export const FEEDBACK_PERIOD: ClockLength = { months: FEEDBACK_MONTHS, days: 0 };

/** The company's internal target: its resolution deadline in days, from receipt and again from reopening. */
export const resolutionPeriod = (resolutionDeadlineDays: number): ClockLength => ({
  months: 0,
  days: resolutionDeadlineDays,
});

/**
 * What a status change does to a clock:
 * - `stop`: the clock is done from now;
 * - `restart`: it runs again, due its length from now;
 * - `resume`: a clock stopped by closing runs again with the due time it had (a case never acknowledged is
 *   then overdue);
 * - a clock not named is left as it is.
 */
export type ClockEffect = 'stop' | 'restart' | 'resume';
export type StatusClockEffects = Readonly<Partial<Record<IncidentClockName, ClockEffect>>>;

/**
 * Each status change by the status it moves to (the transitions allowed are the contracts'
 * incidentStatusTransitions; where a case comes from changes nothing). Acknowledging happens once (only NEW
 * moves to ACKNOWLEDGED). Closing is no feedback (art. 9(1)(f)): the feedback clock stops only with a message
 * marked as feedback, which a close carries while feedback is due (update-case).
 */
export const clockEffectsOfStatus: Readonly<Record<IncidentStatus, StatusClockEffects>> = {
  NEW: {},
  ACKNOWLEDGED: { acknowledgement: 'stop', feedback: 'restart' },
  ASSESSMENT: {},
  INVESTIGATION: {},
  CLOSED: { acknowledgement: 'stop', resolution: 'stop' },
  REOPENED: { acknowledgement: 'resume', resolution: 'restart' },
};

/** A status change's effects as the case's row records them (caseRepository.moveStatus). */
export interface ClockChange {
  /** Stamps acknowledged_at, if not yet: stops the acknowledgement clock alone. */
  acknowledges: boolean;
  /** Stamps closed_at: stops the acknowledgement and resolution clocks (clocksOf). */
  closes: boolean;
  /** Clears closed_at (and stamps reopened_at): the clocks closing stopped run again. */
  reopens: boolean;
  /** The feedback clock's new length from now, when it restarts. */
  feedbackDueIn: ClockLength | null;
  /** The resolution clock's new length from now, when it restarts. */
  resolutionDueIn: ClockLength | null;
}

/** The row changes that carry out clockEffectsOfStatus[to], with the company's resolution deadline. */
export function clockChangeOf(to: IncidentStatus, resolutionDeadlineDays: number): ClockChange {
  const effects = clockEffectsOfStatus[to];
  // closed_at stops the resolution clock and the acknowledgement clock with it; acknowledged_at only the latter.
  const closes = effects.resolution === 'stop';
  return {
    acknowledges: effects.acknowledgement === 'stop' && !closes,
    closes,
    reopens: effects.acknowledgement === 'resume' || effects.resolution === 'resume',
    feedbackDueIn: effects.feedback === 'restart' ? FEEDBACK_PERIOD : null,
    resolutionDueIn: effects.resolution === 'restart' ? resolutionPeriod(resolutionDeadlineDays) : null,
  };
}

/**
 * The directive's clocks of a new case, from its receipt (newReportsRepository.storeStatement): acknowledgement,
 * and feedback counted from the acknowledgement's due time. Its resolution clock is resolutionPeriod.
 */
export const DIRECTIVE_CLOCKS_AT_RECEIPT = {
  acknowledgement: ACKNOWLEDGEMENT_PERIOD,
  feedbackAfterAcknowledgementDue: FEEDBACK_PERIOD,
} as const;

/** The timestamps a case's clocks are computed from (UTC, as stored). */
export interface ClockTimes {
  status: string;
  acknowledgement_due_at: Date;
  feedback_due_at: Date;
  resolution_due_at: Date;
  acknowledged_at: Date | null;
  feedback_at: Date | null;
  closed_at: Date | null;
}

function clock(dueAt: Date, doneAt: Date | null, now: Date): IncidentClock {
  let state: ClockState;
  if (doneAt) state = 'done';
  else if (dueAt.getTime() <= now.getTime()) state = 'overdue';
  else if (dueAt.getTime() - now.getTime() <= DUE_SOON_DAYS * DAY_MS) state = 'due_soon';
  else state = 'due';
  return { due_at: dueAt.toISOString(), done_at: doneAt?.toISOString() ?? null, state };
}

/**
 * The clocks' states at `now`, as clockEffectsOfStatus leaves the row: acknowledgement stops when the case is
 * acknowledged or closed, resolution when it is closed, reopening clears closed_at so they run again.
 * Feedback stops only when a message marked as feedback reaches the reporter.
 */
export function clocksOf(times: ClockTimes, now = new Date()): IncidentClocks {
  const closedAt = times.status === 'CLOSED' ? times.closed_at : null;
  return {
    acknowledgement: clock(times.acknowledgement_due_at, times.acknowledged_at ?? closedAt, now),
    feedback: clock(times.feedback_due_at, times.feedback_at, now),
    resolution: clock(times.resolution_due_at, closedAt, now),
  };
}
