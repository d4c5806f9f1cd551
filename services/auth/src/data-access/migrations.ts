import { tenantPoliciesSql, tenantRolePerSchemaSql, tenantWallSql, type Migration } from '@whistle/service-kit';

export const AUTH_SCHEMA = 'auth';

/** Forward-only migrations of the auth schema. Ids sort in application order. */
export const authMigrations: Migration[] = [
  {
    id: '001_company_users_labels',
    sql: `
      create table auth.company (
        id uuid primary key,
        url_identifier text not null unique,
        name text not null,
        country char(2) not null,
        -- One company per e-mail domain: a second sign-up from the domain is told to ask its admin for an invite.
        email_domain text not null unique,
        public_key text not null,
        aes_encrypted_private_key text not null,
        -- The company passphrase, envelope-encrypted under the key-encryption key from the environment; never in clear.
        wrapped_passphrase text not null,
        logo text,
        title text,
        description text,
        resolution_deadline_days integer not null default 14 check (resolution_deadline_days >= 0),
        notifications jsonb not null default '{"new_incidents": true, "assigned_to_an_incident": true, "incident_updates": true, "deadlines": true}',
        mfa_required boolean not null default false,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table auth.user_profile (
        id uuid primary key,
        company_id uuid not null references auth.company (id) on delete cascade,
        email text not null,
        full_name text not null,
        password_hash text,
        roles text[] not null check (cardinality(roles) > 0 and roles <@ array['ADMIN', 'REVIEWER', 'HANDLER']),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index user_profile_email_key on auth.user_profile (lower(email));
      create index user_profile_company_idx on auth.user_profile (company_id);

      create table auth.category (
        id uuid primary key,
        company_id uuid not null references auth.company (id) on delete cascade,
        parent_id uuid,
        name text not null,
        is_active boolean not null default true,
        position integer not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (company_id, id),
        -- A sub-category belongs to a top-level category of the same company.
        foreign key (company_id, parent_id) references auth.category (company_id, id) on delete cascade,
        unique nulls not distinct (company_id, parent_id, name)
      );

      create table auth.location (
        id uuid primary key,
        company_id uuid not null references auth.company (id) on delete cascade,
        name text not null,
        is_active boolean not null default true,
        position integer not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (company_id, name)
      );
    `,
  },
  {
    id: '002_staff_sign_in',
    sql: `
      alter table auth.user_profile
        -- TOTP secrets are envelope-encrypted under the key-encryption key (bound to the user id), never in clear.
        add column mfa_secret text,
        add column mfa_factor_id uuid,
        -- A factor being set up: enabled only once a code from it is confirmed.
        add column mfa_pending_secret text,
        -- Last accepted TOTP time step: a code is never accepted twice.
        add column mfa_last_time_step bigint,
        add column failed_logins integer not null default 0,
        add column locked_until timestamptz,
        -- Set by a password change: tokens issued before it are refused here and not refreshed. Null: no cut-off.
        add column sessions_valid_after timestamptz;

      -- Secrets handed to a browser once: MFA challenges, password reset / invitation links, SSO codes.
      -- Only a SHA-256 of the secret is stored, so a database reader cannot use a pending one.
      create table auth.one_time_secret (
        secret_hash text primary key,
        purpose text not null check (purpose in ('mfa_challenge', 'password_reset', 'invitation', 'sso_code')),
        user_id uuid not null references auth.user_profile (id) on delete cascade,
        company_id uuid not null references auth.company (id) on delete cascade,
        -- Wrong codes tried against an MFA challenge; it dies after a few.
        attempts integer not null default 0,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index one_time_secret_user_idx on auth.one_time_secret (user_id, purpose);

      -- Access tokens revoked at logout, kept until they would have expired anyway.
      create table auth.revoked_token (
        jti text primary key,
        user_id uuid not null,
        expires_at timestamptz not null
      );

      create table auth.sso_settings (
        company_id uuid primary key references auth.company (id) on delete cascade,
        enabled boolean not null,
        entry_point text not null,
        idp_certificate text not null,
        email_attribute text not null default '',
        updated_at timestamptz not null default now()
      );

      -- Outstanding SAML AuthnRequest ids: a response must answer one, and consumes it (no replay).
      create table auth.saml_request (
        id text primary key,
        company_id uuid not null references auth.company (id) on delete cascade,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    id: '003_label_administration',
    sql: `
      -- Default assignees of a reporting label's new reports (spec: category user_profiles).
      create table auth.category_assignee (
        category_id uuid not null references auth.category (id) on delete cascade,
        user_id uuid not null references auth.user_profile (id) on delete cascade,
        primary key (category_id, user_id)
      );
      create index category_assignee_user_idx on auth.category_assignee (user_id);

      -- Labels and locations some case has carried (from incident events): deleted ones are deactivated instead.
      create table auth.label_in_use (
        label_id uuid primary key,
        company_id uuid not null references auth.company (id) on delete cascade
      );
    `,
  },
  {
    id: '004_team',
    sql: `
      alter table auth.user_profile
        -- For the team page: when the member last completed a sign-in (null: never).
        add column last_sign_in_at timestamptz,
        -- Announced with user.updated for the mails other services send this member.
        add column language text not null default 'en' check (language in ('en', 'fr')),
        add column notifications jsonb not null
          default '{"new_incidents": true, "assigned_to_an_incident": true, "incident_updates": true, "deadlines": true}';
    `,
  },
  {
    id: '005_landing_customization',
    sql: `
      -- The landing page's logo: \`logo\` holds the sha256 (hex) of the stored image, which names its object
      -- (company/{id}/logo/{sha256}) and its URL; the type was read from the image's own bytes at upload.
      alter table auth.company
        add column logo_content_type text
          check (logo_content_type in ('image/png', 'image/jpeg', 'image/svg+xml')),
        add constraint company_logo_complete check ((logo is null) = (logo_content_type is null));
    `,
  },
  {
    id: '006_sso_required',
    sql: `
      -- With SSO enabled: staff other than admins may sign in only through the company's IdP.
      alter table auth.sso_settings add column require_sso boolean not null default false;
    `,
  },
  {
    id: '007_no_account_lock',
    sql: `
      -- Wrong passwords no longer lock an account (anyone knowing the address could keep its owner out): the
      -- guessing client is slowed down by the rate limits instead; failed_logins only counts the streak for
      -- the owner's notice.
      alter table auth.user_profile drop column locked_until;
    `,
  },
  {
    // The tenant wall (docs/security.md, "Tenant isolation"): in a staff request only the caller's company's
    // rows are there, even for a query that forgets its company condition. Left open, holding no company's
    // data: revoked_token (token ids), rate_limit_counter (hashed keys), the outbox and inbox (read by the
    // relay and the consumers, outside any tenant scope) and schema_migration.
    id: '008_tenant_wall',
    sql: tenantWallSql(AUTH_SCHEMA, [
      { table: 'company', companyColumn: 'id' },
      { table: 'user_profile', companyColumn: 'company_id' },
      { table: 'category', companyColumn: 'company_id' },
      { table: 'category_assignee', parent: { table: 'category', foreignKey: 'category_id' } },
      { table: 'location', companyColumn: 'company_id' },
      { table: 'label_in_use', companyColumn: 'company_id' },
      { table: 'one_time_secret', companyColumn: 'company_id' },
      { table: 'sso_settings', companyColumn: 'company_id' },
      { table: 'saml_request', companyColumn: 'company_id' },
    ]),
  },
  {
    // One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
    // service shared, which keeps no right here. Another service's login can no longer switch to a role that
    // reaches this schema.
    // It writes only the columns staff requests write.
    id: '009_tenant_role_per_schema',
    sql: `${tenantRolePerSchemaSql(AUTH_SCHEMA)}
      -- What staff requests (a tenant scope) write, and nothing else: the company's keys and identity (public key,
      -- encrypted private key, wrapped passphrase, url identifier, e-mail domain) are written at onboarding, outside
      -- any scope, and a member's id, company and e-mail never change. A tenant-scoped statement that tried (a bug, a
      -- forgotten condition) is refused by PostgreSQL. A new column a tenant scope writes needs its grant here.
      revoke insert, update, delete on auth.company from whistle_tenant_auth;
      grant update (name, country, resolution_deadline_days, notifications, mfa_required, title, description, logo,
                    logo_content_type, updated_at) on auth.company to whistle_tenant_auth;
      revoke update on auth.user_profile from whistle_tenant_auth;
      grant update (full_name, password_hash, roles, mfa_secret, mfa_factor_id, mfa_pending_secret, mfa_last_time_step,
                    failed_logins, sessions_valid_after, last_sign_in_at, language, notifications, updated_at)
        on auth.user_profile to whistle_tenant_auth;
      revoke update on auth.one_time_secret from whistle_tenant_auth;
      grant update (attempts, used_at) on auth.one_time_secret to whistle_tenant_auth;
    `,
  },
  {
    // The revocation list is @whistle/tokens' now (its 000_token_revocation, in this schema): the logged-out tokens
    // move there.
    // Self-contained SQL: this text never changes with the package.
    id: '010_token_revocation_list',
    sql: `
      insert into auth.token_revocation (jti, expires_at)
        select jti, expires_at from auth.revoked_token where expires_at > now()
        on conflict (jti) do nothing;
      drop table auth.revoked_token;
    `,
  },
  {
    // Onboarding waits for the first admin to confirm the e-mailed link. A registration holds nothing: not the
    // e-mail domain, not the address (only the url_identifier it was promised), so a registration by someone who
    // does not own the address never keeps the real owner out. The first registration of a domain confirmed
    // becomes the company; the others, and unconfirmed ones after a day, are deleted.
    id: '011_company_registration',
    sql: `
      create table auth.company_registration (
        -- The company's id once confirmed: the passphrase is wrapped for it.
        id uuid primary key,
        url_identifier text not null unique,
        -- SHA-256 of the link's secret, never the secret.
        secret_hash text not null unique,
        email text not null,
        email_domain text not null,
        full_name text not null,
        name text not null,
        country char(2) not null,
        password_hash text not null,
        public_key text not null,
        aes_encrypted_private_key text not null,
        wrapped_passphrase text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );
      create index company_registration_expires_idx on auth.company_registration (expires_at);
    `,
  },
  {
    // SAML sign-in bound to the browser that started it (no login CSRF): the SHA-256 of the nonce in that browser's
    // whistle_sso cookie goes with the AuthnRequest, then with the code the answer becomes; /sso/token redeems the
    // code only with that cookie. Requests and codes from before have none and are refused (minutes of sign-ins).
    id: '012_sso_browser_binding',
    sql: `
      alter table auth.saml_request add column browser_binding text;
      alter table auth.one_time_secret add column browser_binding text;
    `,
  },
  {
    // Keys held by people (docs/security.md, "Keys"): nothing here opens a report. Public keys and fingerprints,
    // private keys sealed in browsers, the company key wrapped to admins and to the recovery kit.
    id: '013_person_keys',
    sql: `
      alter table auth.user_profile
        -- Set: password_hash is the argon2id hash of the authentication secret the browser derives with this salt.
        -- Null beside a password_hash: the hash of a password from before (it migrates at its next sign-in).
        add column kdf text check (kdf in ('argon2id-v1')),
        add column kdf_salt text,
        add constraint user_profile_kdf_complete check ((kdf is null) = (kdf_salt is null));

      create table auth.person_key (
        user_id uuid primary key references auth.user_profile (id) on delete cascade,
        company_id uuid not null references auth.company (id) on delete cascade,
        -- The opaque id the public company view lists the key under (no name, no user id).
        key_id uuid not null unique,
        public_key text not null,
        signing_public_key text not null,
        fingerprint text not null,
        created_at timestamptz not null default now()
      );

      -- Sealed copies of a person's private keys, one per way to unlock them; only their owner receives them.
      create table auth.unlock_method (
        id uuid primary key,
        user_id uuid not null references auth.person_key (user_id) on delete cascade,
        company_id uuid not null references auth.company (id) on delete cascade,
        method text not null check (method in ('password', 'passkey', 'passphrase')),
        sealed_private_keys text not null,
        credential_id text,
        prf_salt text,
        kdf text,
        kdf_salt text,
        label text,
        created_at timestamptz not null default now(),
        check ((method = 'passkey') = (credential_id is not null and prf_salt is not null)),
        check ((method = 'passphrase') = (kdf is not null and kdf_salt is not null))
      );
      create unique index unlock_method_one_password on auth.unlock_method (user_id) where method = 'password';
      create unique index unlock_method_one_passphrase on auth.unlock_method (user_id) where method = 'passphrase';
      create index unlock_method_user_idx on auth.unlock_method (user_id);

      -- A company's key pairs: the current one, and while a rotation re-wraps the cases, the previous one.
      create table auth.company_key (
        company_id uuid not null references auth.company (id) on delete cascade,
        version integer not null check (version > 0),
        public_key text not null,
        -- The private key sealed under the recovery kit (v2); null for a company that has not migrated yet.
        recovery_sealed_private_key text,
        state text not null check (state in ('current', 'previous')),
        created_at timestamptz not null default now(),
        primary key (company_id, version)
      );
      create unique index company_key_one_current on auth.company_key (company_id) where state = 'current';

      -- Who holds the company private key (of which version): wrapped to their public key in a browser.
      create table auth.company_key_grant (
        company_id uuid not null,
        key_version integer not null,
        user_id uuid not null references auth.person_key (user_id) on delete cascade,
        key_id uuid not null,
        wrapped_private_key text not null,
        granted_by uuid,
        reason text not null check (reason in ('onboarding', 'migration', 'approval', 'recovery')),
        granted_at timestamptz not null default now(),
        primary key (company_id, key_version, user_id),
        foreign key (company_id, key_version) references auth.company_key (company_id, version) on delete cascade
      );
      create index company_key_grant_user_idx on auth.company_key_grant (user_id);

      -- An admin whose keys are new (reset by e-mail, migration) asks the other admins for the company key.
      create table auth.key_access_request (
        id uuid primary key,
        company_id uuid not null references auth.company (id) on delete cascade,
        user_id uuid not null unique references auth.person_key (user_id) on delete cascade,
        key_id uuid not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      );

      -- The end of the old way, from an admin's staff request once their browser holds the key: the KEK-wrapped
      -- passphrase and the seal it opened are nulled, for the scope's own company only. A function, so the tenant
      -- role can destroy both but never write them (it has no update right on the company's keys).
      create function auth.end_legacy_company_key(target uuid) returns boolean
        language sql security definer set search_path = pg_catalog as $fn$
          update auth.company set wrapped_passphrase = null, aes_encrypted_private_key = null, updated_at = now()
           where id = target and id = nullif(current_setting('whistle.company_id', true), '')::uuid
             and wrapped_passphrase is not null
          returning true
        $fn$;
      revoke execute on function auth.end_legacy_company_key(uuid) from public;
      grant execute on function auth.end_legacy_company_key(uuid) to whistle_tenant_auth;
      -- A password change (a staff request) sets the new password's salt.
      grant update (kdf, kdf_salt) on auth.user_profile to whistle_tenant_auth;

      -- A registration waiting for its e-mail confirmation keeps what the onboarding page made: the admin's salt, public
      -- keys and sealed copy, and their grant of the company key (aes_encrypted_private_key is the recovery kit's copy).
      -- None of it opens anything without the admin's password or the kit.
      alter table auth.company_registration
        add column kdf_salt text,
        add column admin_keys jsonb,
        add column admin_grant text,
        alter column wrapped_passphrase drop not null;

      -- Companies from before: their key is version 1, still sealed the old way until an admin migrates it.
      insert into auth.company_key (company_id, version, public_key, recovery_sealed_private_key, state)
        select id, 1, public_key, null, 'current' from auth.company;
      -- The old way (the private key under a passphrase the server kept wrapped under the KEK) ends at migration.
      alter table auth.company alter column aes_encrypted_private_key drop not null;
      alter table auth.company alter column wrapped_passphrase drop not null;
    `,
  },
  {
    id: '014_person_keys_tenant_wall',
    sql: `${tenantPoliciesSql(AUTH_SCHEMA, [
      { table: 'person_key', companyColumn: 'company_id' },
      { table: 'unlock_method', companyColumn: 'company_id' },
      { table: 'company_key', companyColumn: 'company_id' },
      { table: 'company_key_grant', companyColumn: 'company_id' },
      { table: 'key_access_request', companyColumn: 'company_id' },
    ])}
      -- A company's key pairs are made at onboarding, outside any scope; a staff request only replaces the recovery
      -- kit's copy. A tenant-scoped statement that tried to plant a public key is refused by PostgreSQL.
      revoke insert, update, delete on auth.company_key from whistle_tenant_auth;
      grant update (recovery_sealed_private_key) on auth.company_key to whistle_tenant_auth;
    `,
  },
  // ---- 015_company_key_rotation: appended on its own (it may move to its own file with the others) ----
  {
    // A company key pair rotation (docs/security.md, "Rotation"): made in an admin's browser, started from a staff
    // request. The tenant role still may not write a public key itself: the function below does it only for the
    // scope's own company, only from the current version the browser named, only when no rotation runs, and
    // records who started it. Completion runs in auth's consumer (as the service), not here.
    id: '015_company_key_rotation',
    sql: `
      alter table auth.company_key add column created_by uuid;
      alter table auth.company_key_grant drop constraint company_key_grant_reason_check;
      alter table auth.company_key_grant add constraint company_key_grant_reason_check
        check (reason in ('onboarding', 'migration', 'approval', 'recovery', 'rotation'));

      create function auth.start_company_key_rotation(
        target uuid, from_version integer, new_public_key text, new_recovery_sealed text, started_by uuid
      ) returns integer
        language plpgsql security definer set search_path = pg_catalog as $fn$
          declare
            next_version integer;
          begin
            if target is distinct from nullif(current_setting('whistle.company_id', true), '')::uuid then
              return null;
            end if;
            perform 1 from auth.company_key where company_id = target for update;
            if exists (select 1 from auth.company_key where company_id = target and state = 'previous') then
              return null;
            end if;
            update auth.company_key set state = 'previous'
             where company_id = target and version = from_version and state = 'current'
            returning version + 1 into next_version;
            if next_version is null then
              return null;
            end if;
            insert into auth.company_key (company_id, version, public_key, recovery_sealed_private_key, state, created_by)
              values (target, next_version, new_public_key, new_recovery_sealed, 'current', started_by);
            -- Where the public company view reads the key: new reports are wrapped to it at once.
            update auth.company set public_key = new_public_key, updated_at = now() where id = target;
            return next_version;
          end
        $fn$;
      revoke execute on function auth.start_company_key_rotation(uuid, integer, text, text, uuid) from public;
      grant execute on function auth.start_company_key_rotation(uuid, integer, text, text, uuid) to whistle_tenant_auth;
    `,
  },
  // ---- end of 015_company_key_rotation ----
];
