import { CASE_COUNT_LIMIT, type IncidentListQuery, type IncidentListResponse } from '@whistle/contracts';
import type { Database } from '@whistle/service-kit';
import { caseRepository } from '../../data-access/case.repository';
import { scopeOf, type StaffViewer } from '../access/staff-access';
import { listItems } from './case-view';

/**
 * GET /api/incident/: one page of the cases the viewer may see, with how many match, counted up to
 * `countLimit` (a tenant's whole history is not counted for every page).
 */
export async function listCases(
  db: Database,
  viewer: StaffViewer,
  { sort, page, page_size, ...filter }: IncidentListQuery,
  countLimit = CASE_COUNT_LIMIT,
): Promise<IncidentListResponse> {
  const scope = scopeOf(viewer);
  const rows = await caseRepository.page(db, scope, filter, sort, { offset: (page - 1) * page_size, limit: page_size });
  const counted = await caseRepository.count(db, scope, filter, countLimit + 1);
  return {
    count: Math.min(counted, countLimit),
    count_capped: counted > countLimit,
    page,
    page_size,
    results: await listItems(db, viewer.companyId, rows),
  };
}
