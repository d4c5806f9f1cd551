alter table auth.person_key enable row level security;
create policy tenant_wall on auth.person_key to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

alter table auth.unlock_method enable row level security;
create policy tenant_wall on auth.unlock_method to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

alter table auth.company_key enable row level security;
create policy tenant_wall on auth.company_key to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

alter table auth.company_key_grant enable row level security;
create policy tenant_wall on auth.company_key_grant to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

alter table auth.key_access_request enable row level security;
create policy tenant_wall on auth.key_access_request to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

-- A company's key pairs are made at onboarding, outside any scope; a staff request only replaces the recovery
-- kit's copy. A tenant-scoped statement that tried to plant a public key is refused by PostgreSQL.
revoke insert, update, delete on auth.company_key from whistle_tenant_auth;
grant update (recovery_sealed_private_key) on auth.company_key to whistle_tenant_auth;
