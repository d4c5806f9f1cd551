-- The tenant wall (docs/security.md, "Tenant isolation"): a request run as a company (asTenant) sees and writes
-- only that company's rows, even through a query that forgets its company_id. Every table of company data is
-- here; the service's bookkeeping stays open: the outbox (every company's events, ids only, which the relay
-- reads as the service), inbox, revoked_token, rate_limit_counter, schema_migration. The reporting triggers
-- write their deltas as the caller, for the caller's case: the policy accepts them.

do $$ begin
  if not exists (select from pg_roles where rolname = 'whistle_tenant_incident') then
    begin
      create role whistle_tenant_incident nologin nosuperuser nobypassrls;
    exception
      when duplicate_object or unique_violation then null;
      when insufficient_privilege then
        raise exception 'The role whistle_tenant_incident does not exist and % may not create it', current_user
          using hint = 'An administrator runs: CREATE ROLE whistle_tenant_incident NOLOGIN NOSUPERUSER NOBYPASSRLS; GRANT whistle_tenant_incident TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
  if not pg_has_role(current_user, 'whistle_tenant_incident', 'MEMBER') then
    begin
      execute format('grant whistle_tenant_incident to %I', current_user);
    exception when insufficient_privilege then
      raise exception 'The role whistle_tenant_incident is not granted to %', current_user
        using hint = 'An administrator runs: GRANT whistle_tenant_incident TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
    end;
  end if;
end $$;
grant usage on schema incident to whistle_tenant_incident;
grant select, insert, update, delete on all tables in schema incident to whistle_tenant_incident;
grant usage, select on all sequences in schema incident to whistle_tenant_incident;
alter default privileges in schema incident grant select, insert, update, delete on tables to whistle_tenant_incident;
alter default privileges in schema incident grant usage, select on sequences to whistle_tenant_incident;

  alter table incident.company enable row level security;
  create policy tenant_wall on incident.company to whistle_tenant_incident using (id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.category enable row level security;
  create policy tenant_wall on incident.category to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.location enable row level security;
  create policy tenant_wall on incident.location to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.staff_member enable row level security;
  create policy tenant_wall on incident.staff_member to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.incident enable row level security;
  create policy tenant_wall on incident.incident to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.incident_category enable row level security;
  create policy tenant_wall on incident.incident_category to whistle_tenant_incident using (exists (select 1 from incident.incident parent where parent.id = incident_id)) with check (exists (select 1 from incident.incident parent where parent.id = incident_id));

  alter table incident.incident_field enable row level security;
  create policy tenant_wall on incident.incident_field to whistle_tenant_incident using (exists (select 1 from incident.incident parent where parent.id = incident_id)) with check (exists (select 1 from incident.incident parent where parent.id = incident_id));

  alter table incident.message enable row level security;
  create policy tenant_wall on incident.message to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.file enable row level security;
  create policy tenant_wall on incident.file to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.assignee enable row level security;
  create policy tenant_wall on incident.assignee to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.exclusion enable row level security;
  create policy tenant_wall on incident.exclusion to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.status_change enable row level security;
  create policy tenant_wall on incident.status_change to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.note enable row level security;
  create policy tenant_wall on incident.note to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.deadline_reminder enable row level security;
  create policy tenant_wall on incident.deadline_reminder to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.report_request enable row level security;
  create policy tenant_wall on incident.report_request to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.retention_warning enable row level security;
  create policy tenant_wall on incident.retention_warning to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.reporting_summary enable row level security;
  create policy tenant_wall on incident.reporting_summary to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table incident.reporting_delta enable row level security;
  create policy tenant_wall on incident.reporting_delta to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
