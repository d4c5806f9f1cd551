import type { IncidentClockName } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/** A case the deadline scheduler claimed: its clocks (UTC, as stored), its number and who works it. */
export interface DeadlineCaseRow {
  id: string;
  company_id: string;
  display_report_number: number;
  status: string;
  acknowledgement_due_at: Date;
  feedback_due_at: Date;
  resolution_due_at: Date;
  acknowledged_at: Date | null;
  feedback_at: Date | null;
  closed_at: Date | null;
  assignee_ids: string[];
}

/** The key of one reminder sent. */
export interface ReminderKey {
  clock: IncidentClockName;
  state: 'due_soon' | 'overdue';
  dueAt: Date;
}

export const deadlineRepository = {
  /**
   * Claims up to `limit` cases whose check time has come, every tenant, oldest first, from
   * incident_deadline_check_idx. The rows stay locked until COMMIT; SKIP LOCKED leaves those another
   * scheduler (or a staff update) holds to them, so replicas share the work instead of queueing. NO KEY
   * UPDATE, not UPDATE: a message or note being added to the case (a foreign key's KEY SHARE) is not held up.
   * `now` is the database's, the clock every due time was written with.
   */
  async claimDue(tx: Queryable, limit: number): Promise<{ now: Date; cases: DeadlineCaseRow[] }> {
    const { rows } = await tx.query<DeadlineCaseRow & { now: Date }>(
      `select i.id, i.company_id, i.display_report_number, i.status, i.acknowledgement_due_at, i.feedback_due_at,
              i.resolution_due_at, i.acknowledged_at, i.feedback_at, i.closed_at,
              array(select a.user_id from incident.assignee a where a.incident_id = i.id order by a.user_id)
                as assignee_ids,
              now() as now
         from incident.incident i
        where i.deadline_check_at <= now() and i.display_report_number is not null
        order by i.deadline_check_at
        limit $1
        for no key update of i skip locked`,
      [limit],
    );
    const now = rows[0]?.now ?? new Date();
    return { now, cases: rows.map(({ now: _now, ...row }) => row) };
  },

  /** Records a reminder as sent; false when it already was (the key is case, clock, state and due time). */
  async record(tx: Queryable, companyId: string, incidentId: string, reminder: ReminderKey): Promise<boolean> {
    const { rowCount } = await tx.query(
      `insert into incident.deadline_reminder (incident_id, company_id, clock, state, due_at)
       values ($1, $2, $3, $4, $5) on conflict do nothing`,
      [incidentId, companyId, reminder.clock, reminder.state, reminder.dueAt],
    );
    return rowCount > 0;
  },

  /** Sets when each case is to be looked at again (null: never, until a clock changes). */
  async reschedule(tx: Queryable, next: readonly { id: string; at: Date | null }[]): Promise<void> {
    if (next.length === 0) return;
    await tx.query(
      `update incident.incident i set deadline_check_at = n.at
         from unnest($1::uuid[], $2::timestamptz[]) as n(id, at)
        where i.id = n.id`,
      [next.map((each) => each.id), next.map((each) => each.at?.toISOString() ?? null)],
    );
  },
};
