import type { RewrapBatch, RewrapBatchResult, RewrapPage, RewrapPageQuery } from '@whistle/contracts';
import {
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
  type Queryable,
  type UnitOfWork,
} from '@whistle/service-kit';
import { companyKeyRewrapRepository } from '../../data-access/company-key-rewrap.repository';
import type { StaffViewer } from '../access/staff-access';

/**
 * A company key rotation's cases (docs/security.md, "Rotation"). Auth holds the keys' wrappings; this service holds
 * each case's wrapping of its passphrase. An admin's browser pages through those still under an older key, opens and
 * re-wraps each to the current key, and stores them; when none is left, the previous key may go (auth deletes it
 * on `incident.company_key_rewrapped`). The server cannot check a wrapping: the browser checks each passphrase
 * against its case before it wraps it again (`rewrapIncidentPassphrase`).
 */

function assertAdmin(viewer: StaffViewer): void {
  if (!viewer.roles.includes('ADMIN')) throw new NotAllowedError('Only admins re-wrap the company key');
}

/** The company's key versions, as the browser must know them: `version` is the current one here. */
async function versionsAt(db: Queryable, viewer: StaffViewer, version: number, options?: { lock: boolean }) {
  const versions = await companyKeyRewrapRepository.versions(db, viewer.companyId, options);
  if (!versions) throw new NotFoundError('Company not found');
  // Auth announced the rotation; its event has not arrived yet (seconds at most).
  if (version > versions.key_version)
    throw new ServiceUnavailableError('The new company key has not reached the case service yet: try again', 2);
  if (version < versions.key_version)
    throw new ConflictError('The company key changed since this page loaded: reload the page');
  return versions;
}

/** The rotation the browser names must be the one under way here. */
async function rotationTo(db: Queryable, viewer: StaffViewer, version: number) {
  const versions = await versionsAt(db, viewer, version);
  if (versions.previous_key_version === null) throw new ConflictError('No rotation of the company key is under way');
  return { keyVersion: versions.key_version, previousKeyVersion: versions.previous_key_version };
}

/** GET /api/incident/company-key/rewrap: a page of the cases still under an older key. */
export async function rewrapPage(db: Queryable, viewer: StaffViewer, query: RewrapPageQuery): Promise<RewrapPage> {
  assertAdmin(viewer);
  const rotation = await rotationTo(db, viewer, query.key_version);
  const [cases, remaining] = await Promise.all([
    companyKeyRewrapRepository.page(db, viewer, {
      version: rotation.keyVersion,
      after: query.after,
      limit: query.limit,
    }),
    companyKeyRewrapRepository.remaining(db, viewer.companyId, rotation.keyVersion),
  ]);
  return {
    key_version: rotation.keyVersion,
    previous_key_version: rotation.previousKeyVersion,
    remaining,
    cases,
    next_after: cases.length === query.limit ? cases[cases.length - 1]!.uuid : null,
  };
}

/**
 * PUT /api/incident/company-key/rewrap: re-wrapped passphrases, all or none. A case of another company, or one the
 * caller is excluded from, reads as unknown; one already under the current key stays as it is (a batch sent again
 * after a lost answer stores nothing twice).
 */
export async function storeRewrapped(
  deps: { unitOfWork: UnitOfWork },
  viewer: StaffViewer,
  batch: RewrapBatch,
): Promise<RewrapBatchResult> {
  assertAdmin(viewer);
  const ids = [...new Set(batch.wrappings.map((wrapping) => wrapping.uuid))];
  if (ids.length !== batch.wrappings.length)
    throw new InputError('Bad Request', { wrappings: ['One wrapping per case'] });
  return deps.unitOfWork(async (tx) => {
    const rotation = await rotationTo(tx, viewer, batch.key_version);
    const reachable = await companyKeyRewrapRepository.reachable(tx, viewer, ids);
    if (reachable.size !== ids.length) throw new InputError('Bad Request', { wrappings: ['Unknown case'] });
    let stored = 0;
    for (const wrapping of batch.wrappings)
      if (await companyKeyRewrapRepository.store(tx, viewer.companyId, rotation.keyVersion, wrapping)) stored += 1;
    return { stored, remaining: await companyKeyRewrapRepository.remaining(tx, viewer.companyId, rotation.keyVersion) };
  });
}

/**
 * POST /api/incident/company-key/rewrap/complete: no case left under the previous key, so it may go. From now on
 * this service takes no report wrapped to it (the company row is locked from the count to the commit, so none slips
 * in meanwhile), and announces it: auth deletes the previous key's wrappings, the trail records it. Asked again
 * (an answer lost), it answers done: the announcement went out with the first.
 */
export async function completeRewrap(
  deps: { unitOfWork: UnitOfWork },
  viewer: StaffViewer,
  keyVersion: number,
): Promise<{ remaining: 0 }> {
  assertAdmin(viewer);
  return deps.unitOfWork(async (tx) => {
    const versions = await versionsAt(tx, viewer, keyVersion, { lock: true });
    const previousKeyVersion = versions.previous_key_version;
    if (previousKeyVersion === null) return { remaining: 0 as const };
    const remaining = await companyKeyRewrapRepository.remaining(tx, viewer.companyId, keyVersion);
    if (remaining > 0) throw new ConflictError(`Not every case is re-wrapped yet: ${remaining} left`, { remaining });
    await companyKeyRewrapRepository.recordRotationCompleted(tx, viewer.companyId, keyVersion);
    await tx.addEvent({
      name: 'incident.company_key_rewrapped',
      company_id: viewer.companyId,
      payload: { key_version: keyVersion, previous_key_version: previousKeyVersion },
      actor: { type: 'STAFF', user_id: viewer.userId },
    });
    return { remaining: 0 as const };
  });
}
