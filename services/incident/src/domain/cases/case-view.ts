import type { IncidentListItem, IncidentStaffView, StaffMember } from '@whistle/contracts';
import type { Database, Queryable, UnitOfWork } from '@whistle/service-kit';
import { caseGrantRepository, type CaseGrantRow } from '../../data-access/case-grant.repository';
import { caseRepository, type CaseRow } from '../../data-access/case.repository';
import { caseTeamRepository } from '../../data-access/case-team.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { staffRepository } from '../../data-access/staff.repository';
import { notFound, UNKNOWN_STAFF_NAME } from '../access/incident-actor';
import { permissionsOf, scopeOf, type StaffViewer } from '../access/staff-access';
import type { IncidentSessionSigner } from '../tokens/incident-session-signer';
import { clocksOf } from './legal-clocks';
import { linkedCasesOf } from './link-cases.use-case';

/** Whose list: the company, and the person whose own grants come with each case's keys. */
export interface ListViewer {
  companyId: string;
  userId: string;
}

/** What the list shows of each case: the row, its labels, its assignees and the viewer's own grants (three queries a page). */
export async function listItems(
  db: Queryable,
  viewer: ListViewer,
  rows: readonly CaseRow[],
): Promise<IncidentListItem[]> {
  if (rows.length === 0) return [];
  const { companyId } = viewer;
  const ids = rows.map((row) => row.id);
  const categories = await caseRepository.categoriesOf(db, companyId, ids);
  const assignees = await caseTeamRepository.assigneesOf(db, companyId, ids);
  const grants = await caseGrantRepository.ownGrants(db, companyId, viewer.userId, ids);
  const now = new Date();
  return rows.map((row) => ({
    uuid: row.id,
    display_report_number: row.display_report_number,
    status: { name: row.status },
    outcome: row.outcome,
    report_channel: row.report_channel,
    report_anonymously: row.report_anonymously,
    created: row.created_at.toISOString(),
    updated: row.updated_at.toISOString(),
    last_activity_at: row.last_activity_at.toISOString(),
    location: { uuid: row.location_id, name: row.location_name },
    management_categories: categories
      .filter((category) => category.incident_id === row.id)
      .map(({ uuid, name, parent_uuid }) => ({ uuid, name, parent_uuid })),
    assignees: assignees
      .filter((assignee) => assignee.incident_id === row.id)
      .map(({ uuid, full_name }): StaffMember => ({ uuid, full_name })),
    clocks: clocksOf(row, now),
    full_name: row.full_name,
    keys: keysOf(row, grants.get(row.id)),
  }));
}

/**
 * What a staff browser needs to open a case: its sealed incident key, its wrapping to the company key, and the
 * viewer's own per-case grant if they hold one (`my_grant`) — never another person's.
 */
export const keysOf = (row: CaseRow, grant: CaseGrantRow | undefined) => ({
  credential: { public_key: row.public_key, aes_encrypted_private_key: row.aes_encrypted_private_key },
  aes_salt: row.aes_salt,
  aes_iv: row.aes_iv,
  company_encrypted_passphrase: row.company_encrypted_passphrase,
  my_grant: grant
    ? { key_id: grant.key_id, fingerprint: grant.fingerprint, wrapped_passphrase: grant.wrapped_passphrase }
    : null,
});

export interface CaseViewDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  signer: IncidentSessionSigner;
}

/** The staff member who recorded a report (by name, as the case team knows them). */
async function recorderOf(db: Queryable, companyId: string, userId: string): Promise<StaffMember> {
  const names = await staffRepository.names(db, companyId, [userId]);
  return { uuid: userId, full_name: names.get(userId) ?? UNKNOWN_STAFF_NAME };
}

/** The whole case as the viewer may see it (encrypted parts as the browsers made them), with a file token. */
export async function staffViewOf(
  db: Queryable,
  signer: IncidentSessionSigner,
  viewer: StaffViewer,
  incidentId: string,
): Promise<IncidentStaffView> {
  const row = await caseRepository.find(db, scopeOf(viewer), incidentId);
  if (!row) throw notFound();
  const [item] = await listItems(db, viewer, [row]);
  const permissions = permissionsOf(viewer);
  const history = await caseRepository.statusHistory(db, viewer.companyId, incidentId);
  const files = await signer.signStaffFiles({ incidentId, companyId: viewer.companyId, userId: viewer.userId });
  return {
    ...item!,
    fields: await incidentRepository.fieldsOf(db, incidentId),
    status_history: history.map((change) => ({
      from: change.from_status,
      to: change.to_status,
      outcome: change.outcome,
      motivation: change.motivation,
      changed_by: change.changed_by ? { uuid: change.changed_by, full_name: change.changed_by_name ?? '' } : null,
      changed_at: change.changed_at.toISOString(),
    })),
    // Who is excluded from a case is itself sensitive: only those who decide it see it.
    excluded_users: permissions.exclude ? await caseTeamRepository.exclusionsOf(db, viewer.companyId, incidentId) : [],
    linked_cases: await linkedCasesOf(db, viewer, incidentId),
    permissions,
    file_token: files.token,
    file_token_expires_at: files.expiresAt.toISOString(),
    recorded_by: row.recorded_by ? await recorderOf(db, viewer.companyId, row.recorded_by) : null,
    record_approved_at: row.record_approved_at?.toISOString() ?? null,
  };
}
