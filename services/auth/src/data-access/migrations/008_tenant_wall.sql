-- The tenant wall (docs/security.md, "Tenant isolation"): in a staff request only the caller's company's
-- rows are there, even for a query that forgets its company condition. Left open, holding no company's
-- data: revoked_token (token ids), rate_limit_counter (hashed keys), the outbox and inbox (read by the
-- relay and the consumers, outside any tenant scope) and schema_migration.

do $$ begin
  if not exists (select from pg_roles where rolname = 'whistle_tenant_auth') then
    begin
      create role whistle_tenant_auth nologin nosuperuser nobypassrls;
    exception
      when duplicate_object or unique_violation then null;
      when insufficient_privilege then
        raise exception 'The role whistle_tenant_auth does not exist and % may not create it', current_user
          using hint = 'An administrator runs: CREATE ROLE whistle_tenant_auth NOLOGIN NOSUPERUSER NOBYPASSRLS; GRANT whistle_tenant_auth TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
  if not pg_has_role(current_user, 'whistle_tenant_auth', 'MEMBER') then
    begin
      execute format('grant whistle_tenant_auth to %I', current_user);
    exception when insufficient_privilege then
      raise exception 'The role whistle_tenant_auth is not granted to %', current_user
        using hint = 'An administrator runs: GRANT whistle_tenant_auth TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
end $$;
grant usage on schema auth to whistle_tenant_auth;
grant select, insert, update, delete on all tables in schema auth to whistle_tenant_auth;
grant usage, select on all sequences in schema auth to whistle_tenant_auth;
alter default privileges in schema auth grant select, insert, update, delete on tables to whistle_tenant_auth;
alter default privileges in schema auth grant usage, select on sequences to whistle_tenant_auth;

  alter table auth.company enable row level security;
  create policy tenant_wall on auth.company to whistle_tenant_auth using (id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table auth.user_profile enable row level security;
  create policy tenant_wall on auth.user_profile to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table auth.category enable row level security;
  create policy tenant_wall on auth.category to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table auth.category_assignee enable row level security;
  create policy tenant_wall on auth.category_assignee to whistle_tenant_auth using (exists (select 1 from auth.category parent where parent.id = category_id)) with check (exists (select 1 from auth.category parent where parent.id = category_id));

  alter table auth.location enable row level security;
  create policy tenant_wall on auth.location to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table auth.label_in_use enable row level security;
  create policy tenant_wall on auth.label_in_use to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table auth.one_time_secret enable row level security;
  create policy tenant_wall on auth.one_time_secret to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table auth.sso_settings enable row level security;
  create policy tenant_wall on auth.sso_settings to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table auth.saml_request enable row level security;
  create policy tenant_wall on auth.saml_request to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
