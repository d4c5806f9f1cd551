import type { CompanyPublicView, LogoContentType } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/** A company's landing customisation as stored: `logo` is the sha256 of its image, null for none. */
export interface CustomizationRow {
  url_identifier: string;
  title: string | null;
  description: string | null;
  logo: string | null;
  /** The title and description per language, where the company wrote one. */
  landing_texts: LandingTexts;
}

export type LandingTexts = Partial<Record<string, { title: string | null; description: string | null }>>;

/** The languages as stored: null offers every language the platform has. */
export interface LanguagesRow {
  discloser_languages: string[] | null;
  default_language: string;
}

/**
 * A reader of new reports as the public view lists them (`u` their profile, `pk` their key, `c` the company): their
 * highest role, and their name only when the company shows names on the report form.
 */
const RECIPIENT = `json_build_object('key_id', pk.key_id, 'public_key', pk.public_key, 'signing_public_key', pk.signing_public_key,
  'role', case when 'ADMIN' = any(u.roles) then 'ADMIN' when 'REVIEWER' = any(u.roles) then 'REVIEWER' else 'HANDLER' end,
  'display_name', case when c.shows_recipient_names then u.full_name end)`;

const CUSTOMIZATION_COLUMNS = 'url_identifier, title, description, logo, landing_texts';

/** The public view as read: the customisation columns still raw, turned into `customization` by the use case. */
export type PublicViewRow = Omit<CompanyPublicView, 'customization' | 'languages'> &
  Omit<CustomizationRow, 'url_identifier'> &
  LanguagesRow & { id: string; logo_content_type: LogoContentType | null };

export interface NewCompanyRow {
  id: string;
  urlIdentifier: string;
  name: string;
  country: string;
  emailDomain: string;
  /** The company key's public half; its private half exists only wrapped to admins and to the recovery kit. */
  publicKey: string;
}

/** Companies: their identity, keys and security settings. Reads by a staff caller are scoped by its company id. */
export const companyRepository = {
  async domainTaken(db: Queryable, emailDomain: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from auth.company where email_domain = $1', [emailDomain]);
    return rows.length > 0;
  },

  async urlIdentifierTaken(db: Queryable, urlIdentifier: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from auth.company where url_identifier = $1', [urlIdentifier]);
    return rows.length > 0;
  },

  async insert(db: Queryable, company: NewCompanyRow): Promise<void> {
    await db.query(
      `insert into auth.company (id, url_identifier, name, country, email_domain, public_key)
       values ($1, $2, $3, $4, $5, $6)`,
      [company.id, company.urlIdentifier, company.name, company.country, company.emailDomain, company.publicKey],
    );
  },

  async idByEmailDomain(db: Queryable, domain: string): Promise<string | undefined> {
    const { rows } = await db.query<{ id: string }>('select id from auth.company where email_domain = $1', [domain]);
    return rows[0]?.id;
  },

  async ownCompany(db: Queryable, companyId: string) {
    const { rows } = await db.query<{
      id: string;
      name: string;
      country: string;
      url_identifier: string;
      public_key: string;
      logo: string | null;
      title: string | null;
      description: string | null;
      landing_texts: LandingTexts;
      discloser_languages: string[] | null;
      default_language: string;
      mfa_required: boolean;
      resolution_deadline_days: number;
      notifications: Record<string, boolean>;
      shows_recipient_names: boolean;
      sso_enabled: boolean;
    }>(
      `select c.id, c.name, c.country, c.url_identifier, c.public_key, c.logo, c.title, c.description, c.landing_texts,
              c.discloser_languages, c.default_language, c.mfa_required, c.shows_recipient_names,
              c.resolution_deadline_days, c.notifications, coalesce(s.enabled, false) as sso_enabled
         from auth.company c left join auth.sso_settings s on s.company_id = c.id
        where c.id = $1`,
      [companyId],
    );
    return rows[0];
  },

  /**
   * Changes name and country, the resolution deadline, some notification switches (merged into the others) or
   * whether the report form names the case team; answers the whole resulting state, which `company.updated` carries.
   */
  async updateSettings(
    db: Queryable,
    companyId: string,
    changes: {
      name?: string;
      country?: string;
      resolutionDeadlineDays?: number;
      notifications?: Record<string, boolean>;
      showsRecipientNames?: boolean;
    },
  ) {
    const { rows } = await db.query<{
      name: string;
      country: string;
      resolution_deadline_days: number;
      notifications: Record<string, boolean>;
    }>(
      `update auth.company
          set name = coalesce($2, name),
              country = coalesce($3, country),
              resolution_deadline_days = coalesce($4, resolution_deadline_days),
              notifications = notifications || coalesce($5::jsonb, '{}'::jsonb),
              shows_recipient_names = coalesce($6, shows_recipient_names),
              updated_at = now()
        where id = $1
        returning name, trim(country) as country, resolution_deadline_days, notifications`,
      [
        companyId,
        changes.name ?? null,
        changes.country ?? null,
        changes.resolutionDeadlineDays ?? null,
        changes.notifications ? JSON.stringify(changes.notifications) : null,
        changes.showsRecipientNames ?? null,
      ],
    );
    return rows[0];
  },

  async setMfaRequired(db: Queryable, companyId: string, required: boolean): Promise<void> {
    await db.query('update auth.company set mfa_required = $2, updated_at = now() where id = $1', [
      companyId,
      required,
    ]);
  },

  /**
   * The discloser's view in one round trip: the company's public face with its active labels (a
   * sub-category only while its parent is active) and locations, in the admins' order.
   */
  async findPublicView(db: Queryable, urlIdentifier: string): Promise<PublicViewRow | undefined> {
    const { rows } = await db.query<PublicViewRow>(
      `select c.id, c.url_identifier, c.name, c.logo, c.logo_content_type, c.title, c.description, c.landing_texts,
              c.discloser_languages, c.default_language, c.public_key,
              coalesce((
                select json_agg(json_build_object('uuid', cat.id, 'name', cat.name, 'parent_uuid', cat.parent_id,
                                  'recipient_keys', coalesce((
                                    select json_agg(${RECIPIENT} order by pk.key_id)
                                      from auth.category_assignee ca
                                      join auth.person_key pk on pk.user_id = ca.user_id and pk.company_id = cat.company_id
                                      join auth.user_profile u on u.id = pk.user_id
                                     where ca.category_id = cat.id), '[]'))
                                order by coalesce(parent.position, cat.position), cat.parent_id nulls first, cat.position, cat.name)
                  from auth.category cat
                  left join auth.category parent on parent.company_id = cat.company_id and parent.id = cat.parent_id
                 where cat.company_id = c.id and cat.is_active and (parent.id is null or parent.is_active)
              ), '[]') as categories,
              coalesce((
                select json_agg(json_build_object('uuid', l.id, 'name', l.name) order by l.position, l.name)
                  from auth.location l
                 where l.company_id = c.id and l.is_active
              ), '[]') as locations,
              (select k.version from auth.company_key k where k.company_id = c.id and k.state = 'current') as key_version,
              coalesce((
                select json_agg(${RECIPIENT} order by pk.key_id)
                  from auth.user_profile u join auth.person_key pk on pk.user_id = u.id and pk.company_id = u.company_id
                 where u.company_id = c.id and u.roles && array['ADMIN', 'REVIEWER']
              ), '[]') as every_case_keys,
              c.shows_recipient_names,
              c.id as company_id,
              coalesce((
                select json_agg(json_build_object('company_id', e.company_id, 'key_id', e.key_id,
                                  'signing_public_key', e.signing_public_key, 'role', e.role,
                                  'endorsed_at', e.endorsed_at, 'endorser_key_id', e.endorser_key_id,
                                  'signature', e.signature) order by e.key_id, e.endorser_key_id)
                  from auth.key_endorsement e
                 where e.company_id = c.id
              ), '[]') as key_endorsements
         from auth.company c
        where c.url_identifier = $1`,
      [urlIdentifier],
      { name: 'auth_company_public_view' },
    );
    return rows[0];
  },

  /**
   * Tells every replica listening on `channel` that the company's public view changed: sent at COMMIT of the
   * caller's transaction, never for one rolled back. The payload is the url_identifier (it never changes).
   */
  async notifyPublicViewChanged(tx: Queryable, channel: string, companyId: string): Promise<void> {
    await tx.query('select pg_notify($1, url_identifier) from auth.company where id = $2', [channel, companyId]);
  },

  async customization(db: Queryable, companyId: string): Promise<CustomizationRow | undefined> {
    const { rows } = await db.query<CustomizationRow>(
      `select ${CUSTOMIZATION_COLUMNS} from auth.company where id = $1`,
      [companyId],
    );
    return rows[0];
  },

  async setTitleAndDescription(
    db: Queryable,
    companyId: string,
    title: string | null,
    description: string | null,
  ): Promise<CustomizationRow | undefined> {
    const { rows } = await db.query<CustomizationRow>(
      `update auth.company set title = $2, description = $3, updated_at = now() where id = $1
       returning ${CUSTOMIZATION_COLUMNS}`,
      [companyId, title, description],
    );
    return rows[0];
  },

  /** Sets the title and description shown in one language; both null removes that language's text. */
  async setLandingText(
    db: Queryable,
    companyId: string,
    language: string,
    title: string | null,
    description: string | null,
  ): Promise<CustomizationRow | undefined> {
    const { rows } = await db.query<CustomizationRow>(
      `update auth.company
          set landing_texts = case when $3::text is null and $4::text is null then landing_texts - $2::text
                                   else landing_texts || jsonb_build_object($2::text,
                                          jsonb_build_object('title', $3::text, 'description', $4::text)) end,
              updated_at = now()
        where id = $1
       returning ${CUSTOMIZATION_COLUMNS}`,
      [companyId, language, title, description],
    );
    return rows[0];
  },

  async setLanguages(
    db: Queryable,
    companyId: string,
    offered: readonly string[] | null,
    defaultLanguage: string,
  ): Promise<LanguagesRow | undefined> {
    const { rows } = await db.query<LanguagesRow>(
      `update auth.company set discloser_languages = $2, default_language = $3, updated_at = now() where id = $1
       returning discloser_languages, default_language`,
      [companyId, offered, defaultLanguage],
    );
    return rows[0];
  },

  /** Sets (or with nulls removes) the logo; answers the new state and the sha256 of the logo it replaced. */
  async setLogo(
    db: Queryable,
    companyId: string,
    logo: { sha256: string; contentType: LogoContentType } | null,
  ): Promise<(CustomizationRow & { previous_logo: string | null }) | undefined> {
    const { rows } = await db.query<CustomizationRow & { previous_logo: string | null }>(
      `update auth.company c set logo = $2, logo_content_type = $3, updated_at = now()
         from (select id, logo as previous_logo from auth.company where id = $1 for update) previous
        where c.id = previous.id
       returning c.url_identifier, c.title, c.description, c.logo, c.landing_texts, previous.previous_logo`,
      [companyId, logo?.sha256 ?? null, logo?.contentType ?? null],
    );
    return rows[0];
  },
};
