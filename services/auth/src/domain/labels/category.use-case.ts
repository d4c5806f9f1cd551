import { randomUUID } from 'node:crypto';
import type {
  Category,
  CategoryCreateRequest,
  CategoryUpdateRequest,
  EventPayload,
  LabelDeleteResponse,
} from '@whistle/contracts';
import { InputError, NotFoundError, type Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { categoryRepository, type CategoryRow } from '../../data-access/category.repository';
import { labelUseRepository } from '../../data-access/label-use.repository';
import { isDuplicateName, type LabelDependencies } from './label-dependencies';

type CategoryEvent = 'category.created' | 'category.updated';

const duplicateName = () =>
  new InputError('Bad Request', { name: ['A reporting label with this name already exists'] });

/** The settings view of a label: the top-level row with its sub-categories. */
function asCategory([label, ...children]: CategoryRow[]): Category {
  if (!label) throw new NotFoundError('Category not found');
  return {
    ...label,
    management_categories: children.map(({ uuid, name, parent_uuid, is_active }) => ({
      uuid,
      name,
      parent_uuid,
      is_active,
    })),
  };
}

const eventPayload = (row: CategoryRow): EventPayload<'category.created'> => ({
  category_id: row.uuid,
  name: row.name,
  parent_id: row.parent_uuid,
  is_active: row.is_active,
  assignee_ids: row.user_profiles,
});

async function announce(
  tx: Transaction,
  principal: StaffPrincipal,
  name: CategoryEvent | 'category.deleted',
  rows: CategoryRow[],
) {
  for (const row of rows)
    await tx.addEvent({
      name,
      company_id: principal.companyId,
      payload: name === 'category.deleted' ? { category_id: row.uuid } : eventPayload(row),
      actor: { type: 'STAFF', user_id: principal.userId },
    });
}

/** Sets the default assignees; every id must be a staff member of the company. */
async function assign(tx: Transaction, principal: StaffPrincipal, categoryId: string, userIds: readonly string[]) {
  const unique = [...new Set(userIds)];
  const assigned = await categoryRepository.setAssignees(tx, principal.companyId, categoryId, unique);
  if (assigned !== unique.length) throw new InputError('Bad Request', { user_profiles: ['Unknown user'] });
}

/** Runs a label change; a name taken by a sibling is a field error, not a 500. */
async function changeLabels<T>(deps: LabelDependencies, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await deps.unitOfWork(work);
  } catch (error) {
    if (isDuplicateName(error)) throw duplicateName();
    throw error;
  }
}

/** POST /api/account/company/category/ (ADMIN): a top-level label, its sub-categories and assignees. */
export async function createCategory(
  deps: LabelDependencies,
  principal: StaffPrincipal,
  input: CategoryCreateRequest,
): Promise<Category> {
  return changeLabels(deps, async (tx) => {
    const id = randomUUID();
    const position = await categoryRepository.nextPosition(tx, principal.companyId, null);
    await categoryRepository.insert(tx, {
      id,
      companyId: principal.companyId,
      parentId: null,
      name: input.name,
      position,
    });
    for (const [index, child] of input.management_categories.entries())
      await categoryRepository.insert(tx, {
        id: randomUUID(),
        companyId: principal.companyId,
        parentId: id,
        name: child.name,
        position: index,
      });
    await assign(tx, principal, id, input.user_profiles);
    const rows = await categoryRepository.withChildren(tx, principal.companyId, id);
    await announce(tx, principal, 'category.created', rows);
    return asCategory(rows);
  });
}

/**
 * PUT /api/account/company/category/{uuid} (ADMIN). The edit form renames the label and its sub-categories,
 * adds new ones and removes those left out (deactivated when cases carry them); `user_profiles` replaces the
 * assignees; `is_active` switches the label with its sub-categories.
 */
export async function updateCategory(
  deps: LabelDependencies,
  principal: StaffPrincipal,
  categoryId: string,
  input: CategoryUpdateRequest,
): Promise<Category> {
  return changeLabels(deps, async (tx) => {
    const before = await categoryRepository.withChildren(tx, principal.companyId, categoryId);
    const label = before[0];
    if (!label) throw new NotFoundError('Category not found');
    const children = before.slice(1);
    const companyId = principal.companyId;
    // Sub-categories left out of the form: deleted or deactivated, and announced, by `removeCategories`.
    const removedIds = new Set<string>();

    if (input.name !== undefined && input.management_categories !== undefined) {
      if (label.parent_uuid && input.management_categories.length > 0)
        throw new InputError('Bad Request', {
          management_categories: ['A sub-category cannot have sub-categories'],
        });
      const kept = new Set(input.management_categories.flatMap((child) => (child.uuid ? [child.uuid] : [])));
      const unknown = [...kept].filter((uuid) => !children.some((child) => child.uuid === uuid));
      if (unknown.length > 0) throw new InputError('Bad Request', { management_categories: ['Unknown sub-category'] });
      const removed = children.filter((child) => !kept.has(child.uuid));
      await removeCategories(tx, principal, removed);
      removed.forEach((child) => removedIds.add(child.uuid));
      await categoryRepository.rename(tx, companyId, label.uuid, input.name);
      // A renamed sub-category first takes its own id as a name, so two can swap names in one save.
      const renamed = input.management_categories.filter(
        (child) => child.uuid && children.find((existing) => existing.uuid === child.uuid)?.name !== child.name,
      );
      for (const child of renamed) await categoryRepository.rename(tx, companyId, child.uuid!, child.uuid!);
      for (const child of renamed) await categoryRepository.rename(tx, companyId, child.uuid!, child.name);
      for (const child of input.management_categories.filter((candidate) => !candidate.uuid))
        await categoryRepository.insert(tx, {
          id: randomUUID(),
          companyId,
          parentId: label.uuid,
          name: child.name,
          position: await categoryRepository.nextPosition(tx, companyId, label.uuid),
        });
    }
    if (input.user_profiles !== undefined) await assign(tx, principal, label.uuid, input.user_profiles);
    if (input.is_active !== undefined)
      await categoryRepository.setActive(
        tx,
        companyId,
        [label.uuid, ...children.map((child) => child.uuid)],
        input.is_active,
      );

    const after = await categoryRepository.withChildren(tx, companyId, label.uuid);
    const beforeById = new Map(before.map((row) => [row.uuid, row]));
    const created = after.filter((row) => !beforeById.has(row.uuid));
    const changed = after.filter((row) => {
      const previous = beforeById.get(row.uuid);
      return previous && !removedIds.has(row.uuid) && JSON.stringify(previous) !== JSON.stringify(row);
    });
    await announce(tx, principal, 'category.created', created);
    await announce(tx, principal, 'category.updated', changed);
    return asCategory(after);
  });
}

/** Deletes labels no case carried; deactivates the others, so their cases keep them. */
async function removeCategories(tx: Transaction, principal: StaffPrincipal, rows: CategoryRow[]) {
  if (rows.length === 0) return 'deleted' as const;
  const ids = rows.map((row) => row.uuid);
  if (await labelUseRepository.anyInUse(tx, principal.companyId, ids)) {
    const active = rows.filter((row) => row.is_active);
    await categoryRepository.setActive(tx, principal.companyId, ids, false);
    await announce(
      tx,
      principal,
      'category.updated',
      active.map((row) => ({ ...row, is_active: false })),
    );
    return 'deactivated' as const;
  }
  await categoryRepository.delete(tx, principal.companyId, ids);
  // Sub-categories first: a consumer never holds a child whose parent it has already dropped.
  await announce(tx, principal, 'category.deleted', [...rows].reverse());
  return 'deleted' as const;
}

/**
 * DELETE /api/account/company/category/{uuid} (ADMIN): the label with its sub-categories; kept inactive when
 * any of them is on a case.
 */
export async function deleteCategory(
  deps: LabelDependencies,
  principal: StaffPrincipal,
  categoryId: string,
): Promise<LabelDeleteResponse> {
  return deps.unitOfWork(async (tx) => {
    const rows = await categoryRepository.withChildren(tx, principal.companyId, categoryId);
    if (rows.length === 0) throw new NotFoundError('Category not found');
    return { outcome: await removeCategories(tx, principal, rows) };
  });
}
