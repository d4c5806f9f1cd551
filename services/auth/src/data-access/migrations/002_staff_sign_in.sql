alter table auth.user_profile
  -- TOTP secrets are envelope-encrypted under the key-encryption key (bound to the user id), never in clear.
  add column mfa_secret text,
  add column mfa_factor_id uuid,
  -- A factor being set up: enabled only once a code from it is confirmed.
  add column mfa_pending_secret text,
  -- Last accepted TOTP time step: a code is never accepted twice.
  add column mfa_last_time_step bigint,
  add column failed_logins integer not null default 0,
  add column locked_until timestamptz,
  -- Set by a password change: tokens issued before it are refused here and not refreshed. Null: no cut-off.
  add column sessions_valid_after timestamptz;

-- Secrets handed to a browser once: MFA challenges, password reset / invitation links, SSO codes.
-- Only a SHA-256 of the secret is stored, so a database reader cannot use a pending one.
create table auth.one_time_secret (
  secret_hash text primary key,
  purpose text not null check (purpose in ('mfa_challenge', 'password_reset', 'invitation', 'sso_code')),
  user_id uuid not null references auth.user_profile (id) on delete cascade,
  company_id uuid not null references auth.company (id) on delete cascade,
  -- Wrong codes tried against an MFA challenge; it dies after a few.
  attempts integer not null default 0,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index one_time_secret_user_idx on auth.one_time_secret (user_id, purpose);

-- Access tokens revoked at logout, kept until they would have expired anyway.
create table auth.revoked_token (
  jti text primary key,
  user_id uuid not null,
  expires_at timestamptz not null
);

create table auth.sso_settings (
  company_id uuid primary key references auth.company (id) on delete cascade,
  enabled boolean not null,
  entry_point text not null,
  idp_certificate text not null,
  email_attribute text not null default '',
  updated_at timestamptz not null default now()
);

-- Outstanding SAML AuthnRequest ids: a response must answer one, and consumes it (no replay).
create table auth.saml_request (
  id text primary key,
  company_id uuid not null references auth.company (id) on delete cascade,
  created_at timestamptz not null default now()
);
