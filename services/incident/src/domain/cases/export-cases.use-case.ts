import type { IncidentExportQuery, IncidentExportRow } from '@whistle/contracts';
import type { Database, UnitOfWork } from '@whistle/service-kit';
import { caseRepository } from '../../data-access/case.repository';
import { scopeOf, type StaffViewer } from '../access/staff-access';
import { listItems } from './case-view';

/** Rows read per round trip while streaming an export. */
const BATCH = 500;

/**
 * GET /api/incident/export: what the viewer may see of every case matching the filters, with the
 * ciphertext the browser needs for the Identity column and what the extended export adds (outcome,
 * assignees, clocks); the CSV itself is made in the browser. The
 * export is on the record (count and filters, never rows) before the first row leaves.
 */
export async function exportCases(
  deps: { db: Database; unitOfWork: UnitOfWork },
  viewer: StaffViewer,
  { sort, ...filter }: IncidentExportQuery,
): Promise<{ count: number; rows: AsyncGenerator<IncidentExportRow> }> {
  const scope = scopeOf(viewer);
  // Exact, unlike the list's: the record says how many cases left, and the browser shows progress against it.
  const count = await caseRepository.count(deps.db, scope, filter);
  await deps.unitOfWork((tx) =>
    tx.addEvent({
      name: 'incident.exported',
      company_id: viewer.companyId,
      payload: { count, filters: { sort, ...filter } },
      actor: { type: 'STAFF', user_id: viewer.userId },
    }),
  );
  async function* rows(): AsyncGenerator<IncidentExportRow> {
    for (let offset = 0; ; offset += BATCH) {
      const page = await caseRepository.page(deps.db, scope, filter, sort, { offset, limit: BATCH });
      for (const item of await listItems(deps.db, viewer, page)) {
        yield {
          uuid: item.uuid,
          display_report_number: item.display_report_number,
          status: item.status,
          report_anonymously: item.report_anonymously,
          created: item.created,
          updated: item.updated,
          location: item.location,
          management_categories: item.management_categories,
          full_name: item.full_name,
          keys: item.keys,
          outcome: item.outcome,
          assignees: item.assignees,
          clocks: item.clocks,
        };
      }
      if (page.length < BATCH) return;
    }
  }
  return { count, rows: rows() };
}
