import type { UnitOfWork } from '@whistle/service-kit';
import { caseRepository } from '../../data-access/case.repository';
import { notFound } from '../access/incident-actor';
import { scopeOf, type StaffViewer } from '../access/staff-access';

/**
 * POST /api/incident/{uuid}/print: this person is about to print the case. Paper is beyond every control of the
 * application, so the trail records who printed which case and when, before the page prints (it prints only once
 * this is answered). Nothing of the content travels: the browser prints what it decrypted. A case the viewer may
 * not see reads as unknown.
 */
export async function recordCasePrint(
  deps: { unitOfWork: UnitOfWork },
  viewer: StaffViewer,
  incidentId: string,
): Promise<void> {
  await deps.unitOfWork(async (tx) => {
    if (!(await caseRepository.find(tx, scopeOf(viewer), incidentId))) throw notFound();
    await tx.addEvent({
      name: 'incident.printed',
      company_id: viewer.companyId,
      payload: { incident_id: incidentId },
      actor: { type: 'STAFF', user_id: viewer.userId },
    });
  });
}
