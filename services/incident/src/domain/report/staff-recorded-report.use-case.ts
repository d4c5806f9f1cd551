import {
  staffRecordedChannels,
  type IncidentCreateRequest,
  type IncidentCreateResponse,
  type RecordApproval,
} from '@whistle/contracts';
import { ConflictError, InputError, NotAllowedError, type Queryable, type UnitOfWork } from '@whistle/service-kit';
import { notFound, type IncidentActor } from '../access/incident-actor';
import { seesEveryCase, type StaffViewer } from '../access/staff-access';
import { createIncident, type CreateIncidentDependencies } from './create-incident.use-case';

const channels: readonly string[] = staffRecordedChannels;

/**
 * Who may record a report taken by telephone or in a meeting (directive art. 18): those who handle cases. A
 * reviewer only reads cases, so records none.
 */
export const mayRecordReports = (viewer: StaffViewer) =>
  viewer.roles.includes('ADMIN') || viewer.roles.includes('HANDLER');

/**
 * POST /api/incident/recorded: a report a staff member took by telephone or in a meeting, encrypted in their browser
 * exactly as a reporter's would be (incident key pair, passphrase wrapped to the company key and sealed under a new
 * secret code, which staff pass on to the reporter). Stored like any report, with `recorded_by`; only for the staff
 * member's own company, and never as `online` (that is the reporter's own form).
 */
export async function recordStaffReport(
  deps: CreateIncidentDependencies & { db: Queryable },
  viewer: StaffViewer,
  input: IncidentCreateRequest,
  idempotencyKey?: string,
): Promise<IncidentCreateResponse> {
  if (!mayRecordReports(viewer)) throw new NotAllowedError('Only admins and handlers record reports');
  if (!channels.includes(input.report_channel))
    throw new InputError('Bad Request', {
      report_channel: ['A report recorded by staff is taken by telephone or in a meeting (telephone, internal)'],
    });
  const { rows } = await deps.db.query<{ id: string }>('select id from incident.company where url_identifier = $1', [
    input.url_identifier,
  ]);
  // Another company's identifier reads as unknown, like an identifier nobody has.
  if (rows[0]?.id !== viewer.companyId) throw new InputError('Bad Request', { url_identifier: ['Unknown company'] });
  // A handler sees only the cases assigned to them: the case they took is assigned to them too.
  return createIncident(deps, input, idempotencyKey, { userId: viewer.userId, assign: !seesEveryCase(viewer) });
}

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
