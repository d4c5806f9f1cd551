import type { IncidentStaffView } from '@whistle/contracts';
import { caseViewRepository } from '../../data-access/case-view.repository';
import type { StaffViewer } from '../access/staff-access';
import { staffViewOf, type CaseViewDependencies } from './case-view';

/**
 * GET /api/incident/{uuid} by staff: the case, and a record that this person opened it in this sign-in. The page
 * asks again after every change; the audit trail needs who opened which case in which session, not each reload,
 * so only the first opening of a session (`signedInAt`, the token's sign-in time) emits `incident.viewed`.
 */
export async function viewCase(
  deps: CaseViewDependencies,
  viewer: StaffViewer,
  signedInAt: Date,
  incidentId: string,
): Promise<IncidentStaffView> {
  const view = await staffViewOf(deps.db, deps.signer, viewer, incidentId);
  await deps.unitOfWork(async (tx) => {
    const first = await caseViewRepository.recordFirstInSession(tx, {
      companyId: viewer.companyId,
      incidentId,
      userId: viewer.userId,
      signedInAt,
    });
    if (!first) return;
    await tx.addEvent({
      name: 'incident.viewed',
      company_id: viewer.companyId,
      payload: { incident_id: incidentId },
      actor: { type: 'STAFF', user_id: viewer.userId },
    });
  });
  return view;
}
