import type { Queryable } from '@whistle/service-kit';

export interface LocationRow {
  uuid: string;
  name: string;
  is_active: boolean;
}

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

  async nextPosition(db: Queryable, companyId: string): Promise<number> {
    const { rows } = await db.query<{ next: number }>(
      'select coalesce(max(position) + 1, 0)::int as next from auth.location where company_id = $1',
      [companyId],
    );
    return rows[0]!.next;
  },

  async ofCompany(db: Queryable, companyId: string): Promise<LocationRow[]> {
    const { rows } = await db.query<LocationRow>(
      'select id as uuid, name, is_active from auth.location where company_id = $1 order by position, name',
      [companyId],
    );
    return rows;
  },

  /** Changes a location of the company; undefined when it is not the company's. */
  async update(
    db: Queryable,
    companyId: string,
    id: string,
    changes: { name: string; isActive?: boolean },
  ): Promise<LocationRow | undefined> {
    const { rows } = await db.query<LocationRow>(
      `update auth.location set name = $3, is_active = coalesce($4, is_active), updated_at = now()
        where company_id = $1 and id = $2
        returning id as uuid, name, is_active`,
      [companyId, id, changes.name, changes.isActive ?? null],
    );
    return rows[0];
  },

  async deactivate(db: Queryable, companyId: string, id: string): Promise<LocationRow | undefined> {
    const { rows } = await db.query<LocationRow>(
      `update auth.location set is_active = false, updated_at = now() where company_id = $1 and id = $2
        returning id as uuid, name, is_active`,
      [companyId, id],
    );
    return rows[0];
  },

  async delete(db: Queryable, companyId: string, id: string): Promise<boolean> {
    const { rowCount } = await db.query('delete from auth.location where company_id = $1 and id = $2', [companyId, id]);
    return (rowCount ?? 0) > 0;
  },
};
