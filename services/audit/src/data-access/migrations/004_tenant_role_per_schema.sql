-- One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
-- service shared, which keeps no right here. Another service's login can no longer switch to a role that
-- reaches this schema.
-- The role only reads here.

do $$ begin
  if not exists (select from pg_roles where rolname = 'whistle_tenant_audit') then
    begin
      create role whistle_tenant_audit nologin nosuperuser nobypassrls;
    exception
      when duplicate_object or unique_violation then null;
      when insufficient_privilege then
        raise exception 'The role whistle_tenant_audit does not exist and % may not create it', current_user
          using hint = 'An administrator runs: CREATE ROLE whistle_tenant_audit NOLOGIN NOSUPERUSER NOBYPASSRLS; GRANT whistle_tenant_audit TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
  if not pg_has_role(current_user, 'whistle_tenant_audit', 'MEMBER') then
    begin
      execute format('grant whistle_tenant_audit to %I', current_user);
    exception when insufficient_privilege then
      raise exception 'The role whistle_tenant_audit is not granted to %', current_user
        using hint = 'An administrator runs: GRANT whistle_tenant_audit TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
end $$;
grant usage on schema audit to whistle_tenant_audit;
grant select, insert, update, delete on all tables in schema audit to whistle_tenant_audit;
grant usage, select on all sequences in schema audit to whistle_tenant_audit;
alter default privileges in schema audit grant select, insert, update, delete on tables to whistle_tenant_audit;
alter default privileges in schema audit grant usage, select on sequences to whistle_tenant_audit;
do $$ declare walled record; begin
  for walled in select tablename from pg_policies where schemaname = 'audit' and policyname = 'tenant_wall' loop
    execute format('alter policy tenant_wall on audit.%I to whistle_tenant_audit', walled.tablename);
  end loop;
  if exists (select from pg_roles where rolname = 'whistle_tenant') then
    revoke all on all tables in schema audit from whistle_tenant;
    revoke all on all sequences in schema audit from whistle_tenant;
    revoke all on schema audit from whistle_tenant;
    alter default privileges in schema audit revoke all on tables from whistle_tenant;
    alter default privileges in schema audit revoke all on sequences from whistle_tenant;
  end if;
end $$;

  -- A tenant scope here only reads (admins read, verify and export the trail); entries come from the consumer,
  -- outside any scope. So the role reads: no tenant-scoped statement can write or rewrite an entry.
  revoke insert, update, delete, truncate on all tables in schema audit from whistle_tenant_audit;
  alter default privileges in schema audit revoke insert, update, delete on tables from whistle_tenant_audit;
