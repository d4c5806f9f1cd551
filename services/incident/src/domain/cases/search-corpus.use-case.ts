import { DEFAULT_INCIDENT_SORT, type IncidentSearchCorpusRow, type ReportField } from '@whistle/contracts';
import type { Database, UnitOfWork } from '@whistle/service-kit';
import { caseGrantRepository } from '../../data-access/case-grant.repository';
import { caseRepository } from '../../data-access/case.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { scopeOf, type StaffViewer } from '../access/staff-access';
import { keysOf } from './case-view';

/** Rows read per round trip while streaming the corpus. */
const BATCH = 500;

/**
 * GET /api/incident/search-corpus: every case the viewer may open (the list's visibility: exclusions, a handler's
 * assigned cases only) with its keys and encrypted report fields, for the browser to decrypt and search. The
 * search's words never reach the server; the download is on the record (how many cases) before the first row.
 */
export async function searchCorpus(
  deps: { db: Database; unitOfWork: UnitOfWork },
  viewer: StaffViewer,
): Promise<{ count: number; rows: AsyncGenerator<IncidentSearchCorpusRow> }> {
  const scope = scopeOf(viewer);
  const count = await caseRepository.count(deps.db, scope, {});
  await deps.unitOfWork((tx) =>
    tx.addEvent({
      name: 'incident.searched',
      company_id: viewer.companyId,
      payload: { count },
      actor: { type: 'STAFF', user_id: viewer.userId },
    }),
  );
  async function* rows(): AsyncGenerator<IncidentSearchCorpusRow> {
    for (let offset = 0; ; offset += BATCH) {
      // The list's default order: the cases worked on most recently come first, so do their matches.
      const page = await caseRepository.page(deps.db, scope, {}, DEFAULT_INCIDENT_SORT, { offset, limit: BATCH });
      const byCase = new Map<string, ReportField[]>();
      const fields = await incidentRepository.fieldsOfCases(
        deps.db,
        page.map((row) => row.id),
      );
      for (const { incident_id, name, value } of fields) {
        const own = byCase.get(incident_id);
        if (own) own.push({ name, value });
        else byCase.set(incident_id, [{ name, value }]);
      }
      const grants = await caseGrantRepository.ownGrants(
        deps.db,
        viewer.companyId,
        viewer.userId,
        page.map((row) => row.id),
      );
      for (const row of page) {
        yield {
          uuid: row.id,
          display_report_number: row.display_report_number,
          keys: keysOf(row, grants.get(row.id)),
          fields: byCase.get(row.id) ?? [],
        };
      }
      if (page.length < BATCH) return;
    }
  }
  return { count, rows: rows() };
}
