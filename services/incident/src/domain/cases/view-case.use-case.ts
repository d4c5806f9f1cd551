import type { IncidentStaffView } from '@whistle/contracts';
import type { Database, Queryable, UnitOfWork } from '@whistle/service-kit';
import { caseRepository } from '../../data-access/case.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { notFound } from '../access/incident-actor';
import { permissionsOf, scopeOf, type StaffViewer } from '../access/staff-access';
import type { IncidentSessionSigner } from '../tokens/incident-session-signer';
import { listItems } from './case-view';

export interface CaseViewDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  signer: IncidentSessionSigner;
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
  const [item] = await listItems(db, viewer.companyId, [row]);
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
    excluded_users: permissions.exclude ? await caseRepository.exclusionsOf(db, viewer.companyId, incidentId) : [],
    permissions,
    file_token: files.token,
    file_token_expires_at: files.expiresAt.toISOString(),
  };
}

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
