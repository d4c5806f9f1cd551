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

export interface PublicCompanyRow {
  id: string;
  url_identifier: string;
  name: string;
  logo: string | null;
  title: string | null;
  description: string | null;
  public_key: string;
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
      [company.id, company.urlIdentifier, company.name, company.country, company.emailDomain, company.publicKey,
        company.aesEncryptedPrivateKey, company.wrappedPassphrase],
    );
  },

  async insertUser(db: Queryable, user: { id: string; companyId: string; email: string; fullName: string; passwordHash: string | null; roles: string[] }): Promise<void> {
    await db.query(
      'insert into auth.user_profile (id, company_id, email, full_name, password_hash, roles) values ($1, $2, $3, $4, $5, $6)',
      [user.id, user.companyId, user.email, user.fullName, user.passwordHash, user.roles],
    );
  },

  async insertCategory(db: Queryable, category: { id: string; companyId: string; parentId: string | null; name: string; position: number }): Promise<void> {
    await db.query(
      'insert into auth.category (id, company_id, parent_id, name, position) values ($1, $2, $3, $4, $5)',
      [category.id, category.companyId, category.parentId, category.name, category.position],
    );
  },

  async insertLocation(db: Queryable, location: { id: string; companyId: string; name: string; position: number }): Promise<void> {
    await db.query('insert into auth.location (id, company_id, name, position) values ($1, $2, $3, $4)', [
      location.id, location.companyId, location.name, location.position,
    ]);
  },

  async findPublic(db: Queryable, urlIdentifier: string): Promise<PublicCompanyRow | undefined> {
    const { rows } = await db.query<PublicCompanyRow>(
      'select id, url_identifier, name, logo, title, description, public_key from auth.company where url_identifier = $1',
      [urlIdentifier],
    );
    return rows[0];
  },

  async activeCategories(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ uuid: string; name: string; parent_uuid: string | null }>(
      `select c.id as uuid, c.name, c.parent_id as parent_uuid
         from auth.category c
         left join auth.category parent on parent.company_id = c.company_id and parent.id = c.parent_id
        where c.company_id = $1 and c.is_active and (parent.id is null or parent.is_active)
        order by coalesce(parent.position, c.position), c.parent_id nulls first, c.position, c.name`,
      [companyId],
    );
    return rows;
  },

  async activeLocations(db: Queryable, companyId: string) {
    const { rows } = await db.query<{ uuid: string; name: string }>(
      'select id as uuid, name from auth.location where company_id = $1 and is_active order by position, name',
      [companyId],
    );
    return rows;
  },
};
