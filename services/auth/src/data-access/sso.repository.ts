import type { Queryable } from '@whistle/service-kit';

export interface SsoSettingsRow {
  company_id: string;
  enabled: boolean;
  entry_point: string;
  idp_certificate: string;
  email_attribute: string;
  require_sso: boolean;
}

/** Per-company SAML identity provider settings and the outstanding AuthnRequest ids. */
export const ssoRepository = {
  async settings(db: Queryable, companyId: string): Promise<SsoSettingsRow | undefined> {
    const { rows } = await db.query<SsoSettingsRow>(
      `select company_id, enabled, entry_point, idp_certificate, email_attribute, require_sso
         from auth.sso_settings where company_id = $1`,
      [companyId],
    );
    return rows[0];
  },

  async saveSettings(db: Queryable, settings: SsoSettingsRow): Promise<void> {
    await db.query(
      `insert into auth.sso_settings (company_id, enabled, entry_point, idp_certificate, email_attribute, require_sso)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (company_id) do update set enabled = excluded.enabled, entry_point = excluded.entry_point,
         idp_certificate = excluded.idp_certificate, email_attribute = excluded.email_attribute,
         require_sso = excluded.require_sso, updated_at = now()`,
      [
        settings.company_id,
        settings.enabled,
        settings.entry_point,
        settings.idp_certificate,
        settings.email_attribute,
        settings.require_sso,
      ],
    );
  },

  /** `browserBinding`: the hash of the starting browser's nonce, which the code will carry. */
  async saveRequest(db: Queryable, companyId: string, requestId: string, browserBinding: string): Promise<void> {
    await db.query('insert into auth.saml_request (id, company_id, browser_binding) values ($1, $2, $3)', [
      requestId,
      companyId,
      browserBinding,
    ]);
  },

  async requestCreatedAt(db: Queryable, companyId: string, requestId: string): Promise<Date | undefined> {
    const { rows } = await db.query<{ created_at: Date }>(
      'select created_at from auth.saml_request where id = $1 and company_id = $2',
      [requestId, companyId],
    );
    return rows[0]?.created_at;
  },

  /** The request, for exactly one caller per request id: the response that consumed it. */
  async consumeRequest(
    db: Queryable,
    companyId: string,
    requestId: string,
  ): Promise<{ browser_binding: string | null } | undefined> {
    const { rows } = await db.query<{ browser_binding: string | null }>(
      'delete from auth.saml_request where id = $1 and company_id = $2 returning browser_binding',
      [requestId, companyId],
    );
    return rows[0];
  },

  /** Requests never answered: the day after, nothing can answer them any more. */
  async deleteExpiredRequests(db: Queryable): Promise<void> {
    await db.query(`delete from auth.saml_request where created_at < now() - interval '1 day'`);
  },
};
