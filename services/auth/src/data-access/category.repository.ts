import type { Queryable } from '@whistle/service-kit';

export interface CategoryRow {
  uuid: string;
  name: string;
  parent_uuid: string | null;
  is_active: boolean;
  /** Default assignees of new reports with this label. */
  user_profiles: string[];
}

const categoryColumns = `c.id as uuid, c.name, c.parent_id as parent_uuid, c.is_active,
  coalesce((select array_agg(a.user_id order by a.user_id) from auth.category_assignee a where a.category_id = c.id),
           '{}') as user_profiles`;

/** A company's reporting labels (categories and one level of sub-categories), in the admins' order. */
export const categoryRepository = {
  async insert(
    db: Queryable,
    category: { id: string; companyId: string; parentId: string | null; name: string; position: number },
  ): Promise<void> {
    await db.query(
      'insert into auth.category (id, company_id, parent_id, name, position) values ($1, $2, $3, $4, $5)',
      [category.id, category.companyId, category.parentId, category.name, category.position],
    );
  },

  /** The position after the last label under `parentId` (null: top level). */
  async nextPosition(db: Queryable, companyId: string, parentId: string | null): Promise<number> {
    const { rows } = await db.query<{ next: number }>(
      'select coalesce(max(position) + 1, 0)::int as next from auth.category where company_id = $1 and parent_id is not distinct from $2',
      [companyId, parentId],
    );
    return rows[0]!.next;
  },

  async ofCompany(db: Queryable, companyId: string): Promise<CategoryRow[]> {
    const { rows } = await db.query<CategoryRow>(
      `select ${categoryColumns} from auth.category c where c.company_id = $1 order by c.parent_id nulls first, c.position, c.name`,
      [companyId],
    );
    return rows;
  },

  /** A label of the company and its sub-categories (the label first); empty when it is not the company's. */
  async withChildren(db: Queryable, companyId: string, id: string): Promise<CategoryRow[]> {
    const { rows } = await db.query<CategoryRow>(
      `select ${categoryColumns} from auth.category c
        where c.company_id = $1 and (c.id = $2 or c.parent_id = $2)
        order by c.parent_id nulls first, c.position, c.name`,
      [companyId, id],
    );
    return rows;
  },

  async rename(db: Queryable, companyId: string, id: string, name: string): Promise<void> {
    await db.query('update auth.category set name = $3, updated_at = now() where company_id = $1 and id = $2', [
      companyId,
      id,
      name,
    ]);
  },

  async setActive(db: Queryable, companyId: string, ids: readonly string[], active: boolean): Promise<void> {
    await db.query(
      'update auth.category set is_active = $3, updated_at = now() where company_id = $1 and id = any($2::uuid[])',
      [companyId, ids, active],
    );
  },

  async delete(db: Queryable, companyId: string, ids: readonly string[]): Promise<void> {
    await db.query('delete from auth.category where company_id = $1 and id = any($2::uuid[])', [companyId, ids]);
  },

  /**
   * Replaces a label's default assignees with those of `userIds` that are staff of the company; answers how
   * many that was, so the caller can refuse unknown ids.
   */
  async setAssignees(db: Queryable, companyId: string, categoryId: string, userIds: readonly string[]) {
    await db.query('delete from auth.category_assignee where category_id = $1', [categoryId]);
    const { rowCount } = await db.query(
      `insert into auth.category_assignee (category_id, user_id)
       select $2, u.id from auth.user_profile u where u.company_id = $1 and u.id = any($3::uuid[])`,
      [companyId, categoryId, userIds],
    );
    return rowCount ?? 0;
  },
};
