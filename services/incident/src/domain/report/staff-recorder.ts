import { staffRecordedChannels, type IncidentCreateRequest } from '@whistle/contracts';
import { InputError, NotAllowedError, type Queryable } from '@whistle/service-kit';
import { caseGrantRepository } from '../../data-access/case-grant.repository';
import { seesEveryCase, type StaffViewer } from '../access/staff-access';

const channels: readonly string[] = staffRecordedChannels;

/**
 * Who may record a report taken by telephone or in a meeting (directive art. 18): those who handle cases. A
 * reviewer only reads cases, so records none.
 */
export const mayRecordReports = (viewer: StaffViewer) =>
  viewer.roles.includes('ADMIN') || viewer.roles.includes('HANDLER');

/** Who records a report, for createIncident; `grant` is theirs, to their own current key (`recorder_grant`). */
export interface StaffRecorder {
  userId: string;
  assign: boolean;
  grant?: { keyId: string; wrappedPassphrase: string };
}

/** A reporter's own report never names a recorder: `recorder_grant` belongs to POST /api/incident/recorded. */
export function refuseRecorderGrant(input: IncidentCreateRequest): void {
  if (input.recorder_grant)
    throw new InputError('Bad Request', { recorder_grant: ['Only a report recorded by staff carries this grant'] });
}

/**
 * The recorder's grant checked: only to the recorder's own current key (the fingerprint their page showed them),
 * and only for a recorder who is assigned the case (a handler; an admin opens it with the company key). Every
 * report-time grant (`grants`) must be to the current key of a current default assignee of the chosen categories or
 * of the recorder: a staff page names no one else, so anyone else (a removed member among them) is refused rather
 * than left out. One lookup answers both.
 */
async function checkedGrants(
  db: Queryable,
  viewer: StaffViewer,
  input: IncidentCreateRequest,
  assign: boolean,
): Promise<StaffRecorder['grant']> {
  const keyIds = [...new Set((input.grants ?? []).map((grant) => grant.key_id.toLowerCase()))];
  const { rows } = await caseGrantRepository.recordingKeys(db, viewer.companyId, {
    recorderId: viewer.userId,
    categoryIds: input.category_uuids,
    keyIds,
  });
  const own = rows.find((row) => row.user_id === viewer.userId);
  const recorderGrant = input.recorder_grant;
  if (recorderGrant && (!assign || !own || own.fingerprint !== recorderGrant.fingerprint))
    throw new InputError('Bad Request', {
      recorder_grant: ['A recorder’s grant is only to their own current key, when they are assigned the case'],
    });
  const granted = new Map(rows.map((row) => [row.key_id, row]));
  const mayHold = (keyId: string) => {
    const row = granted.get(keyId);
    return row !== undefined && (row.default_assignee || (assign && row.user_id === viewer.userId));
  };
  if (keyIds.some((keyId) => !mayHold(keyId)))
    throw new InputError('Bad Request', {
      grants: ['A grant is only to the current key of someone the report is assigned to'],
    });
  return recorderGrant && own ? { keyId: own.key_id, wrappedPassphrase: recorderGrant.wrapped_passphrase } : undefined;
}

/**
 * Whether `viewer` may record `input` (POST /api/incident/recorded): a report a staff member took by telephone or in
 * a meeting, encrypted in their browser exactly as a reporter's would be (incident key pair, passphrase wrapped to the
 * company key and sealed under a new secret code, which staff pass on to the reporter). Only for the staff member's
 * own company, and never as `online` (that is the reporter's own form). Answers who recorded it, for createIncident:
 * a handler, who sees only assigned cases, is assigned the case they took, and keeps a grant of it to their own key.
 */
export async function staffRecorder(
  db: Queryable,
  viewer: StaffViewer,
  input: IncidentCreateRequest,
): Promise<StaffRecorder> {
  if (!mayRecordReports(viewer)) throw new NotAllowedError('Only admins and handlers record reports');
  // Keeping people out is the reporter's own choice on their own form, never a recorder's.
  if (input.excluded_key_ids?.length)
    throw new InputError('Bad Request', { excluded_key_ids: ['Only the reporter’s own form excludes people'] });
  if (!channels.includes(input.report_channel))
    throw new InputError('Bad Request', {
      report_channel: ['A report recorded by staff is taken by telephone or in a meeting (telephone, internal)'],
    });
  const { rows } = await db.query<{ id: string }>('select id from incident.company where url_identifier = $1', [
    input.url_identifier,
  ]);
  // Another company's identifier reads as unknown, like an identifier nobody has.
  if (rows[0]?.id !== viewer.companyId) throw new InputError('Bad Request', { url_identifier: ['Unknown company'] });
  const assign = !seesEveryCase(viewer);
  const grant = await checkedGrants(db, viewer, input, assign);
  return { userId: viewer.userId, assign, ...(grant ? { grant } : {}) };
}
