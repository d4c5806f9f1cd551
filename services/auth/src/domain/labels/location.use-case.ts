import { randomUUID } from 'node:crypto';
import type { LabelDeleteResponse, Location, LocationRequest } from '@whistle/contracts';
import { InputError, NotFoundError, type Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { labelUseRepository } from '../../data-access/label-use.repository';
import { locationRepository, type LocationRow } from '../../data-access/location.repository';
import { isDuplicateName, type LabelDependencies } from './label-dependencies';

const duplicateName = () => new InputError('Bad Request', { name: ['A location with this name already exists'] });

async function announce(
  tx: Transaction,
  principal: StaffPrincipal,
  name: 'location.created' | 'location.updated',
  row: LocationRow,
) {
  await tx.addEvent({
    name,
    company_id: principal.companyId,
    payload: { location_id: row.uuid, name: row.name, is_active: row.is_active },
    actor: { type: 'STAFF', user_id: principal.userId },
  });
}

async function changeLocations<T>(deps: LabelDependencies, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await deps.unitOfWork(work);
  } catch (error) {
    if (isDuplicateName(error)) throw duplicateName();
    throw error;
  }
}

/** POST /api/account/company/location/ (ADMIN). */
export async function createLocation(
  deps: LabelDependencies,
  principal: StaffPrincipal,
  input: LocationRequest,
): Promise<Location> {
  return changeLocations(deps, async (tx) => {
    const row = { uuid: randomUUID(), name: input.name, is_active: input.is_active ?? true };
    const position = await locationRepository.nextPosition(tx, principal.companyId);
    await locationRepository.insert(tx, { id: row.uuid, companyId: principal.companyId, name: row.name, position });
    if (!row.is_active) await locationRepository.deactivate(tx, principal.companyId, row.uuid);
    await announce(tx, principal, 'location.created', row);
    return row;
  });
}

/** PUT /api/account/company/location/{uuid} (ADMIN): name, and optionally whether reports may choose it. */
export async function updateLocation(
  deps: LabelDependencies,
  principal: StaffPrincipal,
  locationId: string,
  input: LocationRequest,
): Promise<Location> {
  return changeLocations(deps, async (tx) => {
    const row = await locationRepository.update(tx, principal.companyId, locationId, {
      name: input.name,
      isActive: input.is_active,
    });
    if (!row) throw new NotFoundError('Location not found');
    await announce(tx, principal, 'location.updated', row);
    return row;
  });
}

/** DELETE /api/account/company/location/{uuid} (ADMIN): kept inactive when a case carries it. */
export async function deleteLocation(
  deps: LabelDependencies,
  principal: StaffPrincipal,
  locationId: string,
): Promise<LabelDeleteResponse> {
  return deps.unitOfWork(async (tx) => {
    if (await labelUseRepository.anyInUse(tx, principal.companyId, [locationId])) {
      const row = await locationRepository.deactivate(tx, principal.companyId, locationId);
      if (!row) throw new NotFoundError('Location not found');
      await announce(tx, principal, 'location.updated', row);
      return { outcome: 'deactivated' as const };
    }
    if (!(await locationRepository.delete(tx, principal.companyId, locationId)))
      throw new NotFoundError('Location not found');
    await tx.addEvent({
      name: 'location.deleted',
      company_id: principal.companyId,
      payload: { location_id: locationId },
      actor: { type: 'STAFF', user_id: principal.userId },
    });
    return { outcome: 'deleted' as const };
  });
}
