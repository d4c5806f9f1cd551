-- Keys held by people (docs/security.md, "Keys"): nothing here opens a report. Public keys and fingerprints,
-- private keys sealed in browsers, the company key wrapped to admins and to the recovery kit.

alter table auth.user_profile
  -- Set: password_hash is the argon2id hash of the authentication secret the browser derives with this salt.
  -- Null beside a password_hash: the hash of a password from before (it migrates at its next sign-in).
  add column kdf text check (kdf in ('argon2id-v1')),
  add column kdf_salt text,
  add constraint user_profile_kdf_complete check ((kdf is null) = (kdf_salt is null));

create table auth.person_key (
  user_id uuid primary key references auth.user_profile (id) on delete cascade,
  company_id uuid not null references auth.company (id) on delete cascade,
  -- The opaque id the public company view lists the key under (no name, no user id).
  key_id uuid not null unique,
  public_key text not null,
  signing_public_key text not null,
  fingerprint text not null,
  created_at timestamptz not null default now()
);

-- Sealed copies of a person's private keys, one per way to unlock them; only their owner receives them.
create table auth.unlock_method (
  id uuid primary key,
  user_id uuid not null references auth.person_key (user_id) on delete cascade,
  company_id uuid not null references auth.company (id) on delete cascade,
  method text not null check (method in ('password', 'passkey', 'passphrase')),
  sealed_private_keys text not null,
  credential_id text,
  prf_salt text,
  kdf text,
  kdf_salt text,
  label text,
  created_at timestamptz not null default now(),
  check ((method = 'passkey') = (credential_id is not null and prf_salt is not null)),
  check ((method = 'passphrase') = (kdf is not null and kdf_salt is not null))
);
create unique index unlock_method_one_password on auth.unlock_method (user_id) where method = 'password';
create unique index unlock_method_one_passphrase on auth.unlock_method (user_id) where method = 'passphrase';
create index unlock_method_user_idx on auth.unlock_method (user_id);

-- A company's key pairs: the current one, and while a rotation re-wraps the cases, the previous one.
create table auth.company_key (
  company_id uuid not null references auth.company (id) on delete cascade,
  version integer not null check (version > 0),
  public_key text not null,
  -- The private key sealed under the recovery kit (v2); null for a company that has not migrated yet.
  recovery_sealed_private_key text,
  state text not null check (state in ('current', 'previous')),
  created_at timestamptz not null default now(),
  primary key (company_id, version)
);
create unique index company_key_one_current on auth.company_key (company_id) where state = 'current';

-- Who holds the company private key (of which version): wrapped to their public key in a browser.
create table auth.company_key_grant (
  company_id uuid not null,
  key_version integer not null,
  user_id uuid not null references auth.person_key (user_id) on delete cascade,
  key_id uuid not null,
  wrapped_private_key text not null,
  granted_by uuid,
  reason text not null check (reason in ('onboarding', 'migration', 'approval', 'recovery')),
  granted_at timestamptz not null default now(),
  primary key (company_id, key_version, user_id),
  foreign key (company_id, key_version) references auth.company_key (company_id, version) on delete cascade
);
create index company_key_grant_user_idx on auth.company_key_grant (user_id);

-- An admin whose keys are new (reset by e-mail, migration) asks the other admins for the company key.
create table auth.key_access_request (
  id uuid primary key,
  company_id uuid not null references auth.company (id) on delete cascade,
  user_id uuid not null unique references auth.person_key (user_id) on delete cascade,
  key_id uuid not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

-- The end of the old way, from an admin's staff request once their browser holds the key: the KEK-wrapped
-- passphrase and the seal it opened are nulled, for the scope's own company only. A function, so the tenant
-- role can destroy both but never write them (it has no update right on the company's keys).
create function auth.end_legacy_company_key(target uuid) returns boolean
  language sql security definer set search_path = pg_catalog as $fn$
    update auth.company set wrapped_passphrase = null, aes_encrypted_private_key = null, updated_at = now()
     where id = target and id = nullif(current_setting('whistle.company_id', true), '')::uuid
       and wrapped_passphrase is not null
    returning true
  $fn$;
revoke execute on function auth.end_legacy_company_key(uuid) from public;
grant execute on function auth.end_legacy_company_key(uuid) to whistle_tenant_auth;
-- A password change (a staff request) sets the new password's salt.
grant update (kdf, kdf_salt) on auth.user_profile to whistle_tenant_auth;

-- A registration waiting for its e-mail confirmation keeps what the onboarding page made: the admin's salt, public
-- keys and sealed copy, and their grant of the company key (aes_encrypted_private_key is the recovery kit's copy).
-- None of it opens anything without the admin's password or the kit.
alter table auth.company_registration
  add column kdf_salt text,
  add column admin_keys jsonb,
  add column admin_grant text,
  alter column wrapped_passphrase drop not null;

-- Companies from before: their key is version 1, still sealed the old way until an admin migrates it.
insert into auth.company_key (company_id, version, public_key, recovery_sealed_private_key, state)
  select id, 1, public_key, null, 'current' from auth.company;
-- The old way (the private key under a passphrase the server kept wrapped under the KEK) ends at migration.
alter table auth.company alter column aes_encrypted_private_key drop not null;
alter table auth.company alter column wrapped_passphrase drop not null;
