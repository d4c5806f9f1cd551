-- The tenant wall (docs/security.md): an admin's request reads its company's trail only, even through a query
-- that forgets company_id. Platform entries (no company) match no tenant. chain_head is a company's too: its
-- seq tells how many entries another company has. revoked_token (jtis) and the kit's outbox (audit publishes no
-- event) hold no company's data and stay open. The verification reads the caller's chain in its scope.

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

  alter table audit.audit_event enable row level security;
  create policy tenant_wall on audit.audit_event to whistle_tenant_audit using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table audit.staff_member enable row level security;
  create policy tenant_wall on audit.staff_member to whistle_tenant_audit using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

  alter table audit.chain_head enable row level security;
  create policy tenant_wall on audit.chain_head to whistle_tenant_audit using (company_key = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_key = nullif(current_setting('whistle.company_id', true), '')::uuid);
