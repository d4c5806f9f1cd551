import type { Queryable } from '@whistle/service-kit';

/** The report an earlier request stored under an Idempotency-Key, and the hash of that request. */
export interface EarlierReport {
  requestHash: string;
  incidentId: string;
  retrievalId: string;
  displayReportNumber: number;
}

/** A stored request's row joined to its report (its columns null when outer-joined to nothing) as the report it names. */
export function earlierReportOf(row: {
  request_hash: string | null;
  incident_id: string | null;
  retrieval_id: string | null;
  earlier_number: number | null;
}): EarlierReport | undefined {
  return row.request_hash && row.incident_id && row.retrieval_id && row.earlier_number !== null
    ? {
        requestHash: row.request_hash,
        incidentId: row.incident_id,
        retrievalId: row.retrieval_id,
        displayReportNumber: row.earlier_number,
      }
    : undefined;
}

/**
 * The idempotency keys of report creations (incident.report_request): a retried create finds the report its
 * first attempt stored. Kept a day, far past any retry.
 */
export const reportRequestRepository = {
  /**
   * The report an earlier request stored under `key` (the key is claimed in the statement that stores reports,
   * newReportsRepository.storeStatement; a concurrent claim of the same key waits there for the first one's
   * commit, then sees its report here, or takes the key over if that one failed).
   */
  async earlier(db: Queryable, companyId: string, key: string): Promise<EarlierReport | undefined> {
    const { rows } = await db.query<{
      request_hash: string;
      incident_id: string;
      retrieval_id: string;
      earlier_number: number;
    }>(
      `select r.request_hash, r.incident_id, i.retrieval_id, i.display_report_number as earlier_number
         from incident.report_request r join incident.incident i on i.id = r.incident_id
        where r.company_id = $1 and r.idempotency_key = $2`,
      [companyId, key],
    );
    return rows[0] && earlierReportOf(rows[0]);
  },

  async removeExpired(db: Queryable): Promise<void> {
    await db.query("delete from incident.report_request where created_at < now() - interval '1 day'");
  },
};
