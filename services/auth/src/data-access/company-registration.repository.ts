import type { KdfName, NewPasswordPersonKeys, StaffLanguage } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/** An onboarding waiting for its first admin to confirm the e-mailed link (see migration 010). */
export interface CompanyRegistrationRow {
  id: string;
  url_identifier: string;
  email: string;
  email_domain: string;
  full_name: string;
  name: string;
  country: string;
  password_hash: string;
  /** The company public key, and the recovery kit's copy of its private key. */
  public_key: string;
  aes_encrypted_private_key: string;
  /** The salt of the admin's authentication secret, their keys, and their grant of the company key. */
  kdf_salt: string;
  /** The kdf of that salt (null: a registration stored before it was kept, argon2id-v1). */
  kdf: KdfName | null;
  admin_keys: NewPasswordPersonKeys;
  admin_grant: string;
  /** The onboarding page's language as a staff language (English else): the founding admin's. */
  language: StaffLanguage;
}

export const companyRegistrationRepository = {
  async insert(db: Queryable, row: CompanyRegistrationRow & { secretHash: string; ttlMs: number }): Promise<void> {
    await db.query(
      `insert into auth.company_registration (id, url_identifier, secret_hash, email, email_domain, full_name, name,
         country, password_hash, public_key, aes_encrypted_private_key, kdf_salt, admin_keys, admin_grant, language,
         expires_at, kdf)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
         now() + $16 * interval '1 millisecond', $17)`,
      [
        row.id,
        row.url_identifier,
        row.secretHash,
        row.email,
        row.email_domain,
        row.full_name,
        row.name,
        row.country,
        row.password_hash,
        row.public_key,
        row.aes_encrypted_private_key,
        row.kdf_salt,
        JSON.stringify(row.admin_keys),
        row.admin_grant,
        row.language,
        row.ttlMs,
        row.kdf,
      ],
    );
  },

  /** A url_identifier promised to a pending registration is not given to another. */
  async urlIdentifierTaken(db: Queryable, urlIdentifier: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from auth.company_registration where url_identifier = $1', [
      urlIdentifier,
    ]);
    return rows.length > 0;
  },

  /** Takes the live registration the link's secret names (it works once); undefined when unknown or expired. */
  async consume(db: Queryable, secretHash: string): Promise<CompanyRegistrationRow | undefined> {
    const { rows } = await db.query<CompanyRegistrationRow>(
      `delete from auth.company_registration where secret_hash = $1 and expires_at > now()
       returning id, url_identifier, email, email_domain, full_name, name, country, password_hash, public_key,
                 aes_encrypted_private_key, kdf_salt, kdf, admin_keys, admin_grant, language`,
      [secretHash],
    );
    return rows[0];
  },

  /**
   * The other registrations of a domain that just became a company's: they can no longer succeed. One being
   * confirmed at this moment is skipped (its transaction holds it, and waits for this one's company row: waiting
   * for it in turn would deadlock); that confirmation is told the domain exists, and its row expires.
   */
  async deleteForDomain(db: Queryable, emailDomain: string): Promise<void> {
    await db.query(
      `delete from auth.company_registration where id in (
         select id from auth.company_registration where email_domain = $1 for update skip locked)`,
      [emailDomain],
    );
  },

  async deleteExpired(db: Queryable): Promise<void> {
    await db.query('delete from auth.company_registration where expires_at < now()');
  },
};
