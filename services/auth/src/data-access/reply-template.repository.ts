import type { Queryable } from '@whistle/service-kit';

export interface ReplyTemplateRow {
  id: string;
  name: string;
  body: string;
  language: string;
  updated_at: Date;
}

const columns = 'id, name, body, language, updated_at';

/** A company's reply templates (migrations 017, 018): each query names the company. */
export const replyTemplateRepository = {
  async ofCompany(db: Queryable, companyId: string): Promise<ReplyTemplateRow[]> {
    const { rows } = await db.query<ReplyTemplateRow>(
      `select ${columns} from auth.reply_template where company_id = $1 order by language, lower(name), name, id`,
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

  /** The languages a template of the company may be in: those its disclosure page offers (null: all), its default. */
  async companyLanguages(
    db: Queryable,
    companyId: string,
  ): Promise<{ discloser_languages: string[] | null; default_language: string } | undefined> {
    const { rows } = await db.query<{ discloser_languages: string[] | null; default_language: string }>(
      'select discloser_languages, default_language from auth.company where id = $1',
      [companyId],
    );
    return rows[0];
  },

  /** Saves a template; null when the company has one of that name in that language. */
  async insert(
    db: Queryable,
    template: { id: string; companyId: string; name: string; body: string; language: string },
  ): Promise<ReplyTemplateRow | null> {
    const { rows } = await db.query<ReplyTemplateRow>(
      `insert into auth.reply_template (id, company_id, name, body, language) values ($1, $2, $3, $4, $5)
       on conflict (company_id, language, name) do nothing returning ${columns}`,
      [template.id, template.companyId, template.name, template.body, template.language],
    );
    return rows[0] ?? null;
  },

  /** Changes one of the company's templates (its language kept when none is given); undefined when it has none of that id (a taken name throws 23505). */
  async update(
    db: Queryable,
    companyId: string,
    id: string,
    changes: { name: string; body: string; language: string | undefined },
  ): Promise<ReplyTemplateRow | undefined> {
    const { rows } = await db.query<ReplyTemplateRow>(
      `update auth.reply_template set name = $3, body = $4, language = coalesce($5, language), updated_at = now()
        where company_id = $1 and id = $2 returning ${columns}`,
      [companyId, id, changes.name, changes.body, changes.language ?? null],
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
