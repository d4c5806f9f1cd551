import type { Database, UnitOfWork } from '@whistle/service-kit';

/** What the admin's label, location and company settings calls need: writes announce events. */
export interface LabelDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
}

/** A unique-constraint violation: the name is taken among its siblings. */
export const isDuplicateName = (error: unknown) => (error as { code?: string }).code === '23505';
