import { incidentClockNames, type IncidentClockName } from '@whistle/contracts';
import { clocksOf, type ClockTimes } from '../cases/legal-clocks';

export type ReminderState = 'due_soon' | 'overdue';

/** One reminder a case's clock calls for now; sent at most once per (case, clock, state, due time). */
export interface DeadlineReminder {
  clock: IncidentClockName;
  state: ReminderState;
  dueAt: Date;
}

export interface ReminderPlan {
  /** What the running clocks call for at `now`: each clock's current state, if it is due soon or overdue. */
  reminders: DeadlineReminder[];
  /** When a running clock next enters a reminder state (strictly after `now`); null when none will. */
  nextCheckAt: Date | null;
}

/**
 * The reminders of one case at `now`, with a due-soon window of `windowMs`. A stopped clock (acknowledged,
 * feedback given, case closed) calls for nothing. A clock reminds of the state it is in: one found already
 * overdue (the scheduler was down through its window, or the window is longer than the clock) gets the
 * overdue reminder only, not a late "due soon" as well.
 */
export function planReminders(times: ClockTimes, now: Date, windowMs: number): ReminderPlan {
  // A closed case is not worked on (and not checked: incident.deadline_check_at); a case closed before
  // feedback was required to close keeps its running feedback clock on screen, not in mail.
  if (times.status === 'CLOSED') return { reminders: [], nextCheckAt: null };
  const clocks = clocksOf(times, now);
  const reminders: DeadlineReminder[] = [];
  let next: number | null = null;
  const later = (at: number) => {
    next = next === null ? at : Math.min(next, at);
  };
  for (const name of incidentClockNames) {
    const clock = clocks[name];
    if (clock.done_at !== null) continue;
    const due = new Date(clock.due_at).getTime();
    if (due <= now.getTime()) {
      reminders.push({ clock: name, state: 'overdue', dueAt: new Date(due) });
    } else if (due - windowMs <= now.getTime()) {
      reminders.push({ clock: name, state: 'due_soon', dueAt: new Date(due) });
      later(due);
    } else {
      later(due - windowMs);
    }
  }
  return { reminders, nextCheckAt: next === null ? null : new Date(next) };
}
