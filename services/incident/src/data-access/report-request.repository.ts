import type { Queryable } from '@whistle/service-kit';

/**
 * The idempotency keys of report creations (incident.report_request): a retried create finds the report its
 * first attempt stored. Kept a day, far past any retry.
 */
export const reportRequestRepository = {
  /**
   * Claims `key` for a new report, or answers the earlier claim. A concurrent claim of the same key waits here
   * for the first one's transaction: it then sees the stored report, or takes the key over if that one failed.
   */
  async claim(
    db: Queryable,
    claim: { companyId: string; key: string; requestHash: string; incidentId: string },
  ): Promise<{ claimed: true } | { claimed: false; requestHash: string; incidentId: string; retrievalId: string }> {
    const inserted = await db.query(
      `insert into incident.report_request (company_id, idempotency_key, request_hash, incident_id)
       values ($1, $2, $3, $4) on conflict do nothing`,
      [claim.companyId, claim.key, claim.requestHash, claim.incidentId],
    );
    if (inserted.rowCount === 1) return { claimed: true };
    const { rows } = await db.query<{ request_hash: string; incident_id: string; retrieval_id: string }>(
      `select r.request_hash, r.incident_id, i.retrieval_id
         from incident.report_request r join incident.incident i on i.id = r.incident_id
        where r.company_id = $1 and r.idempotency_key = $2`,
      [claim.companyId, claim.key],
    );
    const earlier = rows[0];
    if (!earlier) throw new Error('an idempotency key conflicted but its report is gone');
    return {
      claimed: false,
      requestHash: earlier.request_hash,
      incidentId: earlier.incident_id,
      retrievalId: earlier.retrieval_id,
    };
  },

  async removeExpired(db: Queryable): Promise<void> {
    await db.query("delete from incident.report_request where created_at < now() - interval '1 day'");
  },
};
