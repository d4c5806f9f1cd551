import { staffRecordedChannels, type IncidentCreateRequest } from '@whistle/contracts';
import { InputError, NotAllowedError, type Queryable } from '@whistle/service-kit';
import { seesEveryCase, type StaffViewer } from '../access/staff-access';

const channels: readonly string[] = staffRecordedChannels;

/**
 * Who may record a report taken by telephone or in a meeting (directive art. 18): those who handle cases. A
 * reviewer only reads cases, so records none.
 */
export const mayRecordReports = (viewer: StaffViewer) =>
  viewer.roles.includes('ADMIN') || viewer.roles.includes('HANDLER');

/**
 * Whether `viewer` may record `input` (POST /api/incident/recorded): a report a staff member took by telephone or in
 * a meeting, encrypted in their browser exactly as a reporter's would be (incident key pair, passphrase wrapped to the
 * company key and sealed under a new secret code, which staff pass on to the reporter). Only for the staff member's
 * own company, and never as `online` (that is the reporter's own form). Answers who recorded it, for createIncident:
 * a handler, who sees only assigned cases, is assigned the case they took.
 */
export async function staffRecorder(
  db: Queryable,
  viewer: StaffViewer,
  input: IncidentCreateRequest,
): Promise<{ userId: string; assign: boolean }> {
  if (!mayRecordReports(viewer)) throw new NotAllowedError('Only admins and handlers record reports');
  if (!channels.includes(input.report_channel))
    throw new InputError('Bad Request', {
      report_channel: ['A report recorded by staff is taken by telephone or in a meeting (telephone, internal)'],
    });
  const { rows } = await db.query<{ id: string }>('select id from incident.company where url_identifier = $1', [
    input.url_identifier,
  ]);
  // Another company's identifier reads as unknown, like an identifier nobody has.
  if (rows[0]?.id !== viewer.companyId) throw new InputError('Bad Request', { url_identifier: ['Unknown company'] });
  return { userId: viewer.userId, assign: !seesEveryCase(viewer) };
}
