-- One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
-- service shared, which keeps no right here. Another service's login can no longer switch to a role that
-- reaches this schema.

do $$ begin
  if not exists (select from pg_roles where rolname = 'whistle_tenant_notification') then
    begin
      create role whistle_tenant_notification nologin nosuperuser nobypassrls;
    exception
      when duplicate_object or unique_violation then null;
      when insufficient_privilege then
        raise exception 'The role whistle_tenant_notification does not exist and % may not create it', current_user
          using hint = 'An administrator runs: CREATE ROLE whistle_tenant_notification NOLOGIN NOSUPERUSER NOBYPASSRLS; GRANT whistle_tenant_notification TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
  if not pg_has_role(current_user, 'whistle_tenant_notification', 'MEMBER') then
    begin
      execute format('grant whistle_tenant_notification to %I', current_user);
    exception when insufficient_privilege then
      raise exception 'The role whistle_tenant_notification is not granted to %', current_user
        using hint = 'An administrator runs: GRANT whistle_tenant_notification TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
end $$;
grant usage on schema notification to whistle_tenant_notification;
grant select, insert, update, delete on all tables in schema notification to whistle_tenant_notification;
grant usage, select on all sequences in schema notification to whistle_tenant_notification;
alter default privileges in schema notification grant select, insert, update, delete on tables to whistle_tenant_notification;
alter default privileges in schema notification grant usage, select on sequences to whistle_tenant_notification;
do $$ declare walled record; begin
  for walled in select tablename from pg_policies where schemaname = 'notification' and policyname = 'tenant_wall' loop
    execute format('alter policy tenant_wall on notification.%I to whistle_tenant_notification', walled.tablename);
  end loop;
  if exists (select from pg_roles where rolname = 'whistle_tenant') then
    revoke all on all tables in schema notification from whistle_tenant;
    revoke all on all sequences in schema notification from whistle_tenant;
    revoke all on schema notification from whistle_tenant;
    alter default privileges in schema notification revoke all on tables from whistle_tenant;
    alter default privileges in schema notification revoke all on sequences from whistle_tenant;
  end if;
end $$;
