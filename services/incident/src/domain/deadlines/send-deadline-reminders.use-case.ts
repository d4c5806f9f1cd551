import type { UnitOfWork } from '@whistle/service-kit';
import { deadlineRepository } from '../../data-access/deadline.repository';
import { planReminders } from './deadline-reminders';

export interface DeadlineReminderOptions {
  /** How long before a clock falls due its `due_soon` reminder is sent. */
  windowMs: number;
  /** Cases claimed per transaction. */
  batchSize: number;
}

const SYSTEM = { type: 'SYSTEM' } as const;

/**
 * One scan: claims the cases whose check time has come, batch after batch, each in one transaction, until
 * none is left. In a batch, each reminder a running clock calls for is recorded and, if it had not been
 * recorded before, announced as `incident.deadline` through the outbox in that same transaction; then each
 * case is given the time it is to be looked at again. A crash before COMMIT leaves nothing behind, so the
 * next scan does it all again; after COMMIT the record refuses a repeat. Answers how many reminders it sent.
 */
export async function sendDeadlineReminders(
  deps: { unitOfWork: UnitOfWork },
  { windowMs, batchSize }: DeadlineReminderOptions,
): Promise<number> {
  let sent = 0;
  for (;;) {
    const { claimed, emitted } = await deps.unitOfWork(async (tx) => {
      const { now, cases } = await deadlineRepository.claimDue(tx, batchSize);
      let emittedInBatch = 0;
      const next: { id: string; at: Date | null }[] = [];
      for (const row of cases) {
        const plan = planReminders(row, now, windowMs);
        for (const reminder of plan.reminders) {
          if (!(await deadlineRepository.record(tx, row.company_id, row.id, reminder))) continue;
          // Ids, the number, the clock, its state and due time: never anything of the report.
          await tx.addEvent({
            name: 'incident.deadline',
            company_id: row.company_id,
            payload: {
              incident_id: row.id,
              display_report_number: row.display_report_number,
              clock: reminder.clock,
              state: reminder.state,
              due_at: reminder.dueAt.toISOString(),
              assignee_ids: row.assignee_ids,
            },
            actor: SYSTEM,
          });
          emittedInBatch += 1;
        }
        next.push({ id: row.id, at: plan.nextCheckAt });
      }
      await deadlineRepository.reschedule(tx, next);
      return { claimed: cases.length, emitted: emittedInBatch };
    });
    sent += emitted;
    // A short batch means nothing else was due, or the rest is another replica's right now.
    if (claimed < batchSize) return sent;
  }
}
