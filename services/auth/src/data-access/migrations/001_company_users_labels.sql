create table auth.company (
  id uuid primary key,
  url_identifier text not null unique,
  name text not null,
  country char(2) not null,
  -- One company per e-mail domain: a second sign-up from the domain is told to ask its admin for an invite.
  email_domain text not null unique,
  public_key text not null,
  aes_encrypted_private_key text not null,
  -- The company passphrase, envelope-encrypted under the key-encryption key from the environment; never in clear.
  wrapped_passphrase text not null,
  logo text,
  title text,
  description text,
  resolution_deadline_days integer not null default 14 check (resolution_deadline_days >= 0),
  notifications jsonb not null default '{"new_incidents": true, "assigned_to_an_incident": true, "incident_updates": true, "deadlines": true}',
  mfa_required boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table auth.user_profile (
  id uuid primary key,
  company_id uuid not null references auth.company (id) on delete cascade,
  email text not null,
  full_name text not null,
  password_hash text,
  roles text[] not null check (cardinality(roles) > 0 and roles <@ array['ADMIN', 'REVIEWER', 'HANDLER']),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index user_profile_email_key on auth.user_profile (lower(email));
create index user_profile_company_idx on auth.user_profile (company_id);

create table auth.category (
  id uuid primary key,
  company_id uuid not null references auth.company (id) on delete cascade,
  parent_id uuid,
  name text not null,
  is_active boolean not null default true,
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, id),
  -- A sub-category belongs to a top-level category of the same company.
  foreign key (company_id, parent_id) references auth.category (company_id, id) on delete cascade,
  unique nulls not distinct (company_id, parent_id, name)
);

create table auth.location (
  id uuid primary key,
  company_id uuid not null references auth.company (id) on delete cascade,
  name text not null,
  is_active boolean not null default true,
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, name)
);
