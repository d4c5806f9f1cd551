/**
 * How much a discloser may write. Enough for any conversation with the case handlers; far too little to fill
 * the database or flood the handlers' inboxes with one anonymous secret code (which renews its session token).
 */
export const discloserMessageLimits = {
  /** Messages from the discloser of one case per hour, counted in the database (every replica, every token). */
  perIncidentPerHour: 20,
  /** Messages from one client address per hour, whatever the case (rate limiter). */
  perClientPerHour: 60,
} as const;
