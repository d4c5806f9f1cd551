-- The tenant wall (docs/security.md): a verified caller's request sees its company's files, messages and deleted
-- cases only, even through a query that forgets company_id. The outbox (ids of events the relay must publish for
-- every company) and rate_limit_counter (HMAC-ed client addresses) hold no company's data and stay open.

do $$ begin
  if not exists (select from pg_roles where rolname = 'whistle_tenant_file') then
    begin
      create role whistle_tenant_file nologin nosuperuser nobypassrls;
    exception
      when duplicate_object or unique_violation then null;
      when insufficient_privilege then
        raise exception 'The role whistle_tenant_file does not exist and % may not create it', current_user
          using hint = 'An administrator runs: CREATE ROLE whistle_tenant_file NOLOGIN NOSUPERUSER NOBYPASSRLS; GRANT whistle_tenant_file TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
  if not pg_has_role(current_user, 'whistle_tenant_file', 'MEMBER') then
    begin
      execute format('grant whistle_tenant_file to %I', current_user);
    exception when insufficient_privilege then
      raise exception 'The role whistle_tenant_file is not granted to %', current_user
        using hint = 'An administrator runs: GRANT whistle_tenant_file TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
end $$;
grant usage on schema file to whistle_tenant_file;
grant select, insert, update, delete on all tables in schema file to whistle_tenant_file;
grant usage, select on all sequences in schema file to whistle_tenant_file;
alter default privileges in schema file grant select, insert, update, delete on tables to whistle_tenant_file;
alter default privileges in schema file grant usage, select on sequences to whistle_tenant_file;

  alter table file.file enable row level security;
  create policy tenant_wall on file.file to whistle_tenant_file using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table file.incident_message enable row level security;
  create policy tenant_wall on file.incident_message to whistle_tenant_file using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table file.deleted_incident enable row level security;
  create policy tenant_wall on file.deleted_incident to whistle_tenant_file using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
