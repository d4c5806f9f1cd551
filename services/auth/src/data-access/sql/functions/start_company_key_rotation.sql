-- Starts a company key pair rotation from an admin's staff request: for the scope's own company only, only
-- from the current version the browser named, only when no rotation runs; the new public key replaces the one the
-- public company view reads, and who started it is recorded. A function, so the tenant role never writes a public
-- key itself. Executable by whistle_tenant_auth only (015_company_key_rotation granted it; replacing the function
-- keeps its grants).
-- Created by migration 015_company_key_rotation; this file is its current text.
create or replace function auth.start_company_key_rotation(
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
