import { DEFAULT_RETENTION_MONTHS } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/** A closed case whose deletion date is near or past, as the retention job claims it. */
export interface RetentionCaseRow {
  id: string;
  company_id: string;
  display_report_number: number;
  purge_at: Date;
}

const seconds = (ms: number) => ms / 1000;

/**
 * The retention policy and the cases it deletes. Each case carries `purge_at` (kept by a trigger from its
 * closing time and the company's policy), read from one index over all tenants.
 */
export const retentionRepository = {
  async months(db: Queryable, companyId: string): Promise<number> {
    const { rows } = await db.query<{ months: number }>(
      'select retention_months as months from incident.company where id = $1',
      [companyId],
    );
    return rows[0]?.months ?? DEFAULT_RETENTION_MONTHS;
  },

  /**
   * Sets the company's policy and moves its closed cases' deletion dates. A later date applies as is; an earlier
   * one never comes sooner than `graceMs` from now (the admins get their warning first), nor later than the date
   * already announced, so saving the same policy again changes nothing. Answers the previous policy, or
   * undefined for a company this service does not know (yet).
   */
  async setMonths(tx: Queryable, companyId: string, months: number, graceMs: number): Promise<number | undefined> {
    // Locked first: two admins saving at once change the dates one after the other, each from the other's result.
    const { rows } = await tx.query<{ previous: number }>(
      'select retention_months as previous from incident.company where id = $1 for update',
      [companyId],
    );
    if (rows.length === 0) return undefined;
    await tx.query('update incident.company set retention_months = $2 where id = $1', [companyId, months]);
    await tx.query(
      `update incident.incident set purge_at = greatest(closed_at + make_interval(months => $2),
              least(coalesce(purge_at, closed_at + make_interval(months => $2)), now() + make_interval(secs => $3)))
        where company_id = $1 and status = 'CLOSED' and closed_at is not null`,
      [companyId, months, seconds(graceMs)],
    );
    return rows[0]!.previous;
  },

  /**
   * Claims up to `limit` closed cases, every tenant, to be deleted within `windowMs` but not yet, whose admins
   * have not been warned of that date. SKIP LOCKED: replicas share the work instead of queueing.
   */
  async claimDueForWarning(tx: Queryable, windowMs: number, limit: number): Promise<RetentionCaseRow[]> {
    const { rows } = await tx.query<RetentionCaseRow>(
      `select i.id, i.company_id, i.display_report_number, i.purge_at
         from incident.incident i
        where i.purge_at <= now() + make_interval(secs => $1) and i.purge_at > now()
          and i.status = 'CLOSED' and i.display_report_number is not null
          and not exists (select 1 from incident.retention_warning w where w.incident_id = i.id and w.delete_at = i.purge_at)
        order by i.purge_at
        limit $2
        for no key update of i skip locked`,
      [seconds(windowMs), limit],
    );
    return rows;
  },

  /**
   * Records a warning as sent; false when it already was (the key is the case and its deletion date). The date is
   * copied in SQL: a JavaScript Date keeps milliseconds only, and a truncated copy would never match the case's
   * date again, so the case would be claimed once more on every batch.
   */
  async recordWarning(tx: Queryable, row: RetentionCaseRow): Promise<boolean> {
    const { rowCount } = await tx.query(
      `insert into incident.retention_warning (incident_id, company_id, delete_at)
       select id, company_id, purge_at from incident.incident where id = $1 and purge_at is not null
       on conflict do nothing`,
      [row.id],
    );
    return rowCount > 0;
  },

  /**
   * Claims up to `limit` closed cases, every tenant, whose deletion date has passed. FOR UPDATE SKIP LOCKED: a
   * case another replica (or a staff member reopening it) holds is left to them; the status is checked on the
   * locked row, so a case reopened meanwhile is not taken.
   */
  async claimExpired(tx: Queryable, limit: number): Promise<RetentionCaseRow[]> {
    const { rows } = await tx.query<RetentionCaseRow>(
      `select i.id, i.company_id, i.display_report_number, i.purge_at
         from incident.incident i
        where i.purge_at <= now() and i.status = 'CLOSED' and i.display_report_number is not null
        order by i.purge_at
        limit $1
        for update of i skip locked`,
      [limit],
    );
    return rows;
  },

  /**
   * Deletes the cases and every row about them. The case row holds its key material (public key, encrypted
   * private key, wrapped passphrases, the discloser token's hash); fields, messages, notes, labels, assignees,
   * exclusions, status changes, reminders, warnings and idempotency keys go with it (ON DELETE CASCADE); the
   * files' read model has no foreign key (the file service's announcements may come first), so it is deleted here.
   */
  async purge(tx: Queryable, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.query('delete from incident.file where incident_id = any($1::uuid[])', [ids]);
    await tx.query('delete from incident.incident where id = any($1::uuid[])', [ids]);
  },
};
