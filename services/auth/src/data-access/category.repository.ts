import type { Queryable } from '@whistle/service-kit';

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

  async ofCompany(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ uuid: string; name: string; parent_uuid: string | null; is_active: boolean }>(
      'select id as uuid, name, parent_id as parent_uuid, is_active from auth.category where company_id = $1 order by parent_id nulls first, position, name',
      [companyId],
    );
    return rows;
  },
};
