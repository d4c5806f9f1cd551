import type { Database } from '@whistle/service-kit';
import { reportingRepository } from '../../data-access/reporting.repository';

/**
 * Moves the reporting deltas (written by the case triggers, migration 008) into the per-day summary, in one
 * transaction: a reading sees them either as deltas or in the summary, never twice or not at all. Answers how
 * many deltas it folded (0 when another replica holds the fold).
 */
export function foldReportingDeltas(deps: { db: Database }, { batchSize }: { batchSize: number }): Promise<number> {
  return deps.db.transaction((tx) => reportingRepository.fold(tx, batchSize));
}
