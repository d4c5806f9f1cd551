-- The tenant wall (docs/security.md), for any request that will read this schema in a company's scope (none
-- does yet: the service only consumes events and sends mails, outside any scope). A queued mail is a company's
-- too (a staff address, a case number): it now says whose; one queued before has no company and matches no
-- tenant, while the dispatcher, which is no tenant, still sends it. The outbox (the kit's; the service
-- publishes nothing) holds no company's data and stays open.

  alter table notification.mail_queue add column company_id uuid;

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

  alter table notification.company_preferences enable row level security;
  create policy tenant_wall on notification.company_preferences to whistle_tenant_notification using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table notification.staff_member enable row level security;
  create policy tenant_wall on notification.staff_member to whistle_tenant_notification using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table notification.category_assignees enable row level security;
  create policy tenant_wall on notification.category_assignees to whistle_tenant_notification using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table notification.incident enable row level security;
  create policy tenant_wall on notification.incident to whistle_tenant_notification using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table notification.mail_queue enable row level security;
  create policy tenant_wall on notification.mail_queue to whistle_tenant_notification using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
