import type { LinkedCase } from '@whistle/contracts';
import { InputError, type Queryable, type UnitOfWork } from '@whistle/service-kit';
import { caseLinkRepository } from '../../data-access/case-link.repository';
import { caseRepository } from '../../data-access/case.repository';
import { notFound } from '../access/incident-actor';
import { scopeOf, type StaffViewer } from '../access/staff-access';

/** The cases linked to `incidentId` that the viewer may see: a link never tells of a case they may not open. */
export async function linkedCasesOf(db: Queryable, viewer: StaffViewer, incidentId: string): Promise<LinkedCase[]> {
  const ids = await caseLinkRepository.linkedIds(db, viewer.companyId, incidentId);
  const visible = await caseRepository.visibleAmong(db, scopeOf(viewer), ids);
  return visible.map((row) => ({
    uuid: row.id,
    display_report_number: row.display_report_number,
    status: { name: row.status },
  }));
}

/**
 * Links or unlinks two cases (issue 23 item 4: reports about the same matter). Only someone who may see both: to
 * anyone else the other case is unknown, whichever of the two it is. Each case's trail gets the event, naming the
 * other; linking twice, or unlinking cases not linked, changes and records nothing. Answers the case's links now.
 */
export async function changeCaseLink(
  deps: { unitOfWork: UnitOfWork },
  viewer: StaffViewer,
  change: { incidentId: string; linkedIncidentId: string; linked: boolean },
): Promise<LinkedCase[]> {
  const { incidentId, linkedIncidentId } = change;
  return deps.unitOfWork(async (tx) => {
    const scope = scopeOf(viewer);
    if (!(await caseRepository.find(tx, scope, incidentId))) throw notFound();
    if (linkedIncidentId === incidentId)
      throw new InputError('Invalid request body', { incident_uuid: ['A case cannot be linked to itself'] });
    if (!(await caseRepository.find(tx, scope, linkedIncidentId)))
      throw new InputError('Invalid request body', { incident_uuid: ['Unknown case'] });
    const changed = change.linked
      ? await caseLinkRepository.link(tx, {
          companyId: viewer.companyId,
          incidentId,
          linkedIncidentId,
          userId: viewer.userId,
        })
      : await caseLinkRepository.unlink(tx, viewer.companyId, incidentId, linkedIncidentId);
    if (changed)
      for (const [one, other] of [
        [incidentId, linkedIncidentId],
        [linkedIncidentId, incidentId],
      ])
        await tx.addEvent({
          name: change.linked ? 'incident.linked' : 'incident.unlinked',
          company_id: viewer.companyId,
          payload: { incident_id: one, linked_incident_id: other },
          actor: { type: 'STAFF', user_id: viewer.userId },
        });
    return linkedCasesOf(tx, viewer, incidentId);
  });
}
