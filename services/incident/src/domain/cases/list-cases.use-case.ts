import { CASE_COUNT_LIMIT, type IncidentListQuery, type IncidentListResponse } from '@whistle/contracts';
import type { Database } from '@whistle/service-kit';
import { caseReadRepository } from '../../data-access/case-read.repository';
import { caseRepository } from '../../data-access/case.repository';
import { scopeOf, type StaffViewer } from '../access/staff-access';
import { listItems } from './case-view';

/**
 * GET /api/incident/: one page of the cases the viewer may see, with how many match, counted up to
 * `countLimit` (a tenant's whole history is not counted for every page). One transaction: in the caller's tenant
 * scope each statement alone would be a transaction of its own (BEGIN with the role, the statement, COMMIT), so the
 * page, the count, the unread counts, the labels and the assignees share one instead of paying that three round
 * trips each.
 */
export async function listCases(
  db: Database,
  viewer: StaffViewer,
  { sort, page, page_size, ...filter }: IncidentListQuery,
  countLimit = CASE_COUNT_LIMIT,
): Promise<IncidentListResponse> {
  const scope = scopeOf(viewer);
  return db.transaction(async (tx) => {
    const offset = (page - 1) * page_size;
    const rows = await caseRepository.page(tx, scope, filter, sort, { offset, limit: page_size });
    // A caseload's page counts its matches itself; an empty page (past the last) or a company-wide one does not.
    const counted = rows[0]?.matching ?? (await caseRepository.count(tx, scope, filter, countLimit + 1));
    // Counted for the page's cases only: those the viewer may see, and no more than a page of them.
    const ids = rows.map((row) => row.id);
    const unread = await caseReadRepository.unreadCounts(tx, viewer.companyId, viewer.userId, ids);
    const items = await listItems(tx, viewer, rows);
    return {
      count: Math.min(counted, countLimit),
      count_capped: counted > countLimit,
      page,
      page_size,
      results: items.map((item) => ({ ...item, unread_messages: unread.get(item.uuid) ?? 0 })),
    };
  });
}
