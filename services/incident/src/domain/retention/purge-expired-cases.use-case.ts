import type { UnitOfWork } from '@whistle/service-kit';
import { retentionRepository } from '../../data-access/retention.repository';

export interface RetentionRunOptions {
  /** How long before its deletion date a case's admins are warned. */
  warningMs: number;
  /** Cases claimed per transaction. */
  batchSize: number;
}

export interface RetentionRunResult {
  warned: number;
  deleted: number;
}

const SYSTEM = { type: 'SYSTEM' } as const;

/**
 * Warns of each closed case coming due for deletion, once per case and date: the record and its
 * `incident.retention_due` event are written in one transaction, so a crash leaves neither and a retry,
 * restart or other replica finds the record and sends nothing.
 */
async function warnOfDeletions(deps: { unitOfWork: UnitOfWork }, { warningMs, batchSize }: RetentionRunOptions) {
  let warned = 0;
  for (;;) {
    const { claimed, emitted } = await deps.unitOfWork(async (tx) => {
      const cases = await retentionRepository.claimDueForWarning(tx, warningMs, batchSize);
      let emittedInBatch = 0;
      for (const row of cases) {
        if (!(await retentionRepository.recordWarning(tx, row))) continue;
        await tx.addEvent({
          name: 'incident.retention_due',
          company_id: row.company_id,
          payload: {
            incident_id: row.id,
            display_report_number: row.display_report_number,
            delete_at: row.purge_at.toISOString(),
          },
          actor: SYSTEM,
        });
        emittedInBatch += 1;
      }
      return { claimed: cases.length, emitted: emittedInBatch };
    });
    warned += emitted;
    // A short batch means nothing else was due, or the rest is another replica's right now.
    if (claimed < batchSize) return warned;
  }
}

/**
 * Deletes the closed cases whose date has passed, batch after batch: each case's rows (its key material with
 * them) and its `incident.deleted` event go in one transaction, so the event exists exactly when the case is
 * gone, and the file service deletes its files on that event. Ids and the number only travel.
 */
async function deleteExpired(deps: { unitOfWork: UnitOfWork }, { batchSize }: RetentionRunOptions) {
  let deleted = 0;
  for (;;) {
    const claimed = await deps.unitOfWork(async (tx) => {
      const cases = await retentionRepository.claimExpired(tx, batchSize);
      await retentionRepository.purge(
        tx,
        cases.map((row) => row.id),
      );
      for (const row of cases)
        await tx.addEvent({
          name: 'incident.deleted',
          company_id: row.company_id,
          payload: { incident_id: row.id, display_report_number: row.display_report_number, reason: 'retention' },
          actor: SYSTEM,
        });
      return cases.length;
    });
    deleted += claimed;
    if (claimed < batchSize) return deleted;
  }
}

/** One run of the retention job: the warnings first, then the deletions. */
export async function runRetention(
  deps: { unitOfWork: UnitOfWork },
  options: RetentionRunOptions,
): Promise<RetentionRunResult> {
  const warned = await warnOfDeletions(deps, options);
  const deleted = await deleteExpired(deps, options);
  return { warned, deleted };
}
