import type { CompanyPublicView } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

export interface NewCompanyRow {
  id: string;
  urlIdentifier: string;
  name: string;
  country: string;
  emailDomain: string;
  publicKey: string;
  aesEncryptedPrivateKey: string;
  wrappedPassphrase: string;
}

/** Plain SQL over the auth schema; every query that reads tenant rows is scoped by company id. */
export const companyRepository = {
  async domainTaken(db: Queryable, emailDomain: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from auth.company where email_domain = $1', [emailDomain]);
    return rows.length > 0;
  },

  async urlIdentifierTaken(db: Queryable, urlIdentifier: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from auth.company where url_identifier = $1', [urlIdentifier]);
    return rows.length > 0;
  },

  async insertCompany(db: Queryable, company: NewCompanyRow): Promise<void> {
    await db.query(
      `insert into auth.company (id, url_identifier, name, country, email_domain, public_key, aes_encrypted_private_key, wrapped_passphrase)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        company.id,
        company.urlIdentifier,
        company.name,
        company.country,
        company.emailDomain,
        company.publicKey,
        company.aesEncryptedPrivateKey,
        company.wrappedPassphrase,
      ],
    );
  },

  async insertUser(
    db: Queryable,
    user: {
      id: string;
      companyId: string;
      email: string;
      fullName: string;
      passwordHash: string | null;
      roles: string[];
    },
  ): Promise<void> {
    await db.query(
      'insert into auth.user_profile (id, company_id, email, full_name, password_hash, roles) values ($1, $2, $3, $4, $5, $6)',
      [user.id, user.companyId, user.email, user.fullName, user.passwordHash, user.roles],
    );
  },

  async insertCategory(
    db: Queryable,
    category: { id: string; companyId: string; parentId: string | null; name: string; position: number },
  ): Promise<void> {
    await db.query(
      'insert into auth.category (id, company_id, parent_id, name, position) values ($1, $2, $3, $4, $5)',
      [category.id, category.companyId, category.parentId, category.name, category.position],
    );
  },

  async insertLocation(
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

  /**
   * The discloser's view in one round trip: the company's public face with its active labels (a
   * sub-category only while its parent is active) and locations, in the admins' order.
   */
  async findPublicView(db: Queryable, urlIdentifier: string): Promise<CompanyPublicView | undefined> {
    const { rows } = await db.query<CompanyPublicView>(
      `select c.url_identifier, c.name, c.logo, c.title, c.description, c.public_key,
              coalesce((
                select json_agg(json_build_object('uuid', cat.id, 'name', cat.name, 'parent_uuid', cat.parent_id)
                                order by coalesce(parent.position, cat.position), cat.parent_id nulls first, cat.position, cat.name)
                  from auth.category cat
                  left join auth.category parent on parent.company_id = cat.company_id and parent.id = cat.parent_id
                 where cat.company_id = c.id and cat.is_active and (parent.id is null or parent.is_active)
              ), '[]') as categories,
              coalesce((
                select json_agg(json_build_object('uuid', l.id, 'name', l.name) order by l.position, l.name)
                  from auth.location l
                 where l.company_id = c.id and l.is_active
              ), '[]') as locations
         from auth.company c
        where c.url_identifier = $1`,
      [urlIdentifier],
    );
    return rows[0];
  },
};
