const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Within this many days a running clock shows amber in the staff screens. The server's DUE_SOON_DAYS (2) is
 * when reminder e-mails go out; people planning their week want to see a little further ahead.
 */
export const SOON_DAYS = 3;

export type ClockUrgency = { level: 'overdue' } | { level: 'soon' | 'later'; days: number };

/** How urgent a running clock due at `dueAt` is at `now`, worked out in the browser from the deadline itself. */
export function urgencyOf(dueAt: string, now: number): ClockUrgency {
  const left = Date.parse(dueAt) - now;
  if (left <= 0) return { level: 'overdue' };
  const days = Math.ceil(left / DAY_MS);
  return { level: days <= SOON_DAYS ? 'soon' : 'later', days };
}
