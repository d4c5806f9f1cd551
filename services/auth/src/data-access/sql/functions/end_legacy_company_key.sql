-- The end of the old way, from an admin's staff request once their browser holds the key: the KEK-wrapped
-- passphrase and the seal it opened are nulled, for the scope's own company only. A function, so the tenant
-- role can destroy both but never write them (it has no update right on the company's keys). Executable by
-- whistle_tenant_auth only (013_person_keys granted it; replacing the function keeps its grants).
-- Created by migration 013_person_keys; this file is its current text.
create or replace function auth.end_legacy_company_key(target uuid) returns boolean
  language sql security definer set search_path = pg_catalog as $fn$
    update auth.company set wrapped_passphrase = null, aes_encrypted_private_key = null, updated_at = now()
     where id = target and id = nullif(current_setting('whistle.company_id', true), '')::uuid
       and wrapped_passphrase is not null
    returning true
  $fn$;
