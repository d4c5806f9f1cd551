import type { IncidentStaffView } from '@whistle/contracts';
import type { StaffViewer } from '../access/staff-access';
import { staffViewOf, type CaseViewDependencies } from './case-view';

/** GET /api/incident/{uuid} by staff: the case, and a record that this person opened it. */
export async function viewCase(
  deps: CaseViewDependencies,
  viewer: StaffViewer,
  incidentId: string,
): Promise<IncidentStaffView> {
  const view = await staffViewOf(deps.db, deps.signer, viewer, incidentId);
  await deps.unitOfWork((tx) =>
    tx.addEvent({
      name: 'incident.viewed',
      company_id: viewer.companyId,
      payload: { incident_id: incidentId },
      actor: { type: 'STAFF', user_id: viewer.userId },
    }),
  );
  return view;
}
