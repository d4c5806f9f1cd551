-- One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
-- service shared, which keeps no right here. Another service's login can no longer switch to a role that
-- reaches this schema.
-- It writes only the columns staff requests write.

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
do $$ declare walled record; begin
  for walled in select tablename from pg_policies where schemaname = 'auth' and policyname = 'tenant_wall' loop
    execute format('alter policy tenant_wall on auth.%I to whistle_tenant_auth', walled.tablename);
  end loop;
  if exists (select from pg_roles where rolname = 'whistle_tenant') then
    revoke all on all tables in schema auth from whistle_tenant;
    revoke all on all sequences in schema auth from whistle_tenant;
    revoke all on schema auth from whistle_tenant;
    alter default privileges in schema auth revoke all on tables from whistle_tenant;
    alter default privileges in schema auth revoke all on sequences from whistle_tenant;
  end if;
end $$;

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
