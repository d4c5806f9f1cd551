import type { Queryable } from '@whistle/service-kit';

/** A company's locations, in the admins' order. */
export const locationRepository = {
  async insert(
    db: Queryable,
    location: { id: string; companyId: string; name: string; position: number },
  ): Promise<void> {
    await db.query('insert into auth.location (id, company_id, name, position) values ($1, $2, $3, $4)', [
      location.id,
      location.companyId,
      location.name,
      location.position,
    ]);
  },

  async ofCompany(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ uuid: string; name: string; is_active: boolean }>(
      'select id as uuid, name, is_active from auth.location where company_id = $1 order by position, name',
      [companyId],
    );
    return rows;
  },
};
