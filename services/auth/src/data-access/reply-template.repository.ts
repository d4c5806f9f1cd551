import type { Queryable } from '@whistle/service-kit';

export interface ReplyTemplateRow {
  id: string;
  name: string;
  body: string;
  updated_at: Date;
}

const columns = 'id, name, body, updated_at';

/** A company's reply templates (migration 017): each query names the company. */
export const replyTemplateRepository = {
  async ofCompany(db: Queryable, companyId: string): Promise<ReplyTemplateRow[]> {
    const { rows } = await db.query<ReplyTemplateRow>(
      `select ${columns} from auth.reply_template where company_id = $1 order by lower(name), name, id`,
      [companyId],
    );
    return rows;
  },

  /** Waits for the company's other template saves (a transaction-scoped lock), then counts its templates. */
  async lockAndCount(db: Queryable, companyId: string): Promise<number> {
    await db.query(`select pg_advisory_xact_lock(hashtextextended('auth.reply_template:' || $1::text, 0))`, [
      companyId,
    ]);
    const { rows } = await db.query<{ count: number }>(
      'select count(*)::int as count from auth.reply_template where company_id = $1',
      [companyId],
    );
    return rows[0]?.count ?? 0;
  },

  /** Saves a template; null when the company has one of that name. */
  async insert(
    db: Queryable,
    template: { id: string; companyId: string; name: string; body: string },
  ): Promise<ReplyTemplateRow | null> {
    const { rows } = await db.query<ReplyTemplateRow>(
      `insert into auth.reply_template (id, company_id, name, body) values ($1, $2, $3, $4)
       on conflict (company_id, name) do nothing returning ${columns}`,
      [template.id, template.companyId, template.name, template.body],
    );
    return rows[0] ?? null;
  },

  /** Changes one of the company's templates; undefined when it has none of that id (a taken name throws 23505). */
  async update(
    db: Queryable,
    companyId: string,
    id: string,
    changes: { name: string; body: string },
  ): Promise<ReplyTemplateRow | undefined> {
    const { rows } = await db.query<ReplyTemplateRow>(
      `update auth.reply_template set name = $3, body = $4, updated_at = now() where company_id = $1 and id = $2
       returning ${columns}`,
      [companyId, id, changes.name, changes.body],
    );
    return rows[0];
  },

  async delete(db: Queryable, companyId: string, id: string): Promise<boolean> {
    const { rowCount } = await db.query('delete from auth.reply_template where company_id = $1 and id = $2', [
      companyId,
      id,
    ]);
    return (rowCount ?? 0) > 0;
  },
};
