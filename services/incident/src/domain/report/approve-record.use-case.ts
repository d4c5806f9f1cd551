import type { RecordApproval } from '@whistle/contracts';
import { ConflictError, NotAllowedError, type UnitOfWork } from '@whistle/service-kit';
import { notFound, type IncidentActor } from '../access/incident-actor';

/**
 * POST /api/incident/{uuid}/record-approval: the reporter (their session for this case) approves the record staff
 * made of their report. Approving again answers the first approval's time and records nothing more; a report the
 * reporter wrote themselves has no record to approve (409).
 */
export async function approveRecord(deps: { unitOfWork: UnitOfWork }, actor: IncidentActor): Promise<RecordApproval> {
  if (actor.source !== 'DISCLOSER') throw new NotAllowedError('Only the reporter approves the record');
  return deps.unitOfWork(async (tx) => {
    const { rows } = await tx.query<{ recorded_by: string | null; record_approved_at: Date | null }>(
      `select recorded_by, record_approved_at from incident.incident where id = $1 and company_id = $2 for update`,
      [actor.incidentId, actor.companyId],
    );
    const incident = rows[0];
    if (!incident) throw notFound();
    if (!incident.recorded_by) throw new ConflictError('This report was not recorded by the case team');
    if (incident.record_approved_at) return { record_approved_at: incident.record_approved_at.toISOString() };
    const approved = await tx.query<{ record_approved_at: Date }>(
      `update incident.incident set record_approved_at = now(), last_activity_at = now()
        where id = $1 and company_id = $2 returning record_approved_at`,
      [actor.incidentId, actor.companyId],
    );
    await tx.addEvent({
      name: 'incident.record_approved',
      company_id: actor.companyId,
      payload: { incident_id: actor.incidentId },
      actor: { type: 'DISCLOSER' },
    });
    return { record_approved_at: approved.rows[0]!.record_approved_at.toISOString() };
  });
}
