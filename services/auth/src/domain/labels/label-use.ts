import type { Queryable } from '@whistle/service-kit';
import { labelUseRepository } from '../../data-access/label-use.repository';

/** A case carries these reporting labels and this location (from incident.created / incident.updated). */
export async function recordLabelsInUse(tx: Queryable, companyId: string, labelIds: readonly string[]): Promise<void> {
  if (labelIds.length > 0) await labelUseRepository.record(tx, companyId, labelIds);
}
