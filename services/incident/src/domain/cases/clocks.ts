import { DUE_SOON_DAYS, type ClockState, type IncidentClock, type IncidentClocks } from '@whistle/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

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
 * The directive's clocks and the internal target (docs/case-management.md): acknowledgement stops when the
 * case is acknowledged or closed, resolution when it is closed, reopening starts them again (a case never
 * acknowledged is then overdue). Feedback stops only when a message marked as feedback reaches the reporter:
 * closing is no feedback (art. 9(1)(f)), so closing while it is due carries a final message that is.
 */
export function clocksOf(times: ClockTimes, now = new Date()): IncidentClocks {
  const closedAt = times.status === 'CLOSED' ? times.closed_at : null;
  return {
    acknowledgement: clock(times.acknowledgement_due_at, times.acknowledged_at ?? closedAt, now),
    feedback: clock(times.feedback_due_at, times.feedback_at, now),
    resolution: clock(times.resolution_due_at, closedAt, now),
  };
}
