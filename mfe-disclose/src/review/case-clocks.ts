import type { IncidentStatus } from '@whistle/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `date` plus calendar months in UTC, as PostgreSQL's `interval 'n months'` (the incident service's clocks): the
 * same day of the month, or the month's last day when it is shorter.
 */
export function addMonthsUtc(date: Date, months: number): Date {
  const day = date.getUTCDate();
  const result = new Date(date);
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

export type DiscloserClock =
  | { state: 'done'; at?: Date }
  | { state: 'due' | 'late'; dueAt: Date }
  /** Acknowledged, feedback not given yet: 3 months from an acknowledgement whose date the reporter is not told. */
  | { state: 'afterAcknowledgement'; latest: Date };

export interface DiscloserClocks {
  received: Date;
  acknowledgement: DiscloserClock;
  feedback: DiscloserClock;
}

/**
 * The directive's two clocks (docs/case-management.md, Clocks) as the reporter can know them from what the
 * discloser view and the thread give: receipt (`created`), the status, and the staff messages marked feedback.
 * Acknowledgement is due 7 days after receipt and done once the status has left NEW; feedback is due 3 months after
 * the acknowledgement, or after day 7 when none came, and done with the first staff message marked feedback.
 */
export function discloserClocks(
  incident: { created: string; status: { name: IncidentStatus } },
  messages: readonly { created: string; feedback?: boolean; sender: { source: string } }[] | undefined,
  now = new Date(),
): DiscloserClocks {
  const received = new Date(incident.created);
  const acknowledgementDue = new Date(received.getTime() + 7 * DAY_MS);
  const feedbackLatest = addMonthsUtc(acknowledgementDue, 3);
  const running = (dueAt: Date): DiscloserClock => ({ state: dueAt <= now ? 'late' : 'due', dueAt });
  const acknowledged = incident.status.name !== 'NEW';
  const feedback = messages?.find((message) => message.feedback && message.sender.source === 'STAFF');
  return {
    received,
    acknowledgement: acknowledged ? { state: 'done' } : running(acknowledgementDue),
    feedback: feedback
      ? { state: 'done', at: new Date(feedback.created) }
      : acknowledged
        ? { state: 'afterAcknowledgement', latest: feedbackLatest }
        : running(feedbackLatest),
  };
}
