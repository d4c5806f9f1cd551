import { randomUUID } from 'node:crypto';
import {
  SAVED_VIEWS_PER_PERSON,
  savedViewFiltersSchema,
  type SavedView,
  type SavedViewFilters,
} from '@whistle/contracts';
import { InputError, NotFoundError, type Database, type Queryable } from '@whistle/service-kit';
import { savedViewRepository, type SavedViewRow } from '../../data-access/saved-view.repository';
import type { StaffViewer } from '../access/staff-access';

function savedViewOf(row: SavedViewRow): SavedView {
  // Stored as checked on the way in; read through the schema again so the answer has only known keys.
  return {
    uuid: row.id,
    name: row.name,
    filters: savedViewFiltersSchema.parse(row.filters),
    created: row.created_at.toISOString(),
  };
}

/** The signed-in person's saved views, by name: nobody else's, whatever their role. */
export async function listSavedViews(db: Queryable, viewer: StaffViewer): Promise<SavedView[]> {
  return (await savedViewRepository.listOf(db, viewer.companyId, viewer.userId)).map(savedViewOf);
}

/**
 * Saves the person's current list filters under a name (issue 23 item 2). A name they already use, or a view past
 * their SAVED_VIEWS_PER_PERSON, is refused with a 400 that says so.
 */
export async function saveView(
  deps: { db: Database },
  viewer: StaffViewer,
  view: { name: string; filters: SavedViewFilters },
): Promise<SavedView> {
  return deps.db.transaction(async (tx) => {
    const count = await savedViewRepository.lockAndCount(tx, viewer.companyId, viewer.userId);
    if (count >= SAVED_VIEWS_PER_PERSON)
      throw new InputError('Invalid request body', {
        name: [`You can keep at most ${SAVED_VIEWS_PER_PERSON} saved views; delete one first`],
      });
    const saved = await savedViewRepository.insert(tx, {
      id: randomUUID(),
      companyId: viewer.companyId,
      userId: viewer.userId,
      name: view.name,
      filters: view.filters,
    });
    if (!saved) throw new InputError('Invalid request body', { name: ['You already have a saved view of this name'] });
    return savedViewOf(saved);
  });
}

/** Deletes one of the person's views; another person's, or an unknown one, is not found (404). */
export async function deleteSavedView(db: Queryable, viewer: StaffViewer, id: string): Promise<void> {
  if (!(await savedViewRepository.delete(db, viewer.companyId, viewer.userId, id)))
    throw new NotFoundError('Saved view not found');
}
