import type { Queryable } from '@whistle/service-kit';

/** Each company's notification preferences (defaults until settings arrive), kept from auth's events. */
export const companyPreferencesRepository = {
  /** The company with the default preferences; a replayed event changes nothing. */
  async insertDefaults(
    db: Queryable,
    company: { companyId: string; urlIdentifier: string; name: string },
  ): Promise<void> {
    await db.query(
      `insert into notification.company_preferences (company_id, url_identifier, name) values ($1, $2, $3)
       on conflict (company_id) do nothing`,
      [company.companyId, company.urlIdentifier, company.name],
    );
  },
};
