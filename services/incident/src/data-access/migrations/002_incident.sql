-- A report. Clear columns are what the server may see (ARCHITECTURE §5): ids, number, status,
-- channel, anonymity flag, timestamps. Key material is the browser's ciphertext; the discloser's
-- auth token only as a hash. Nothing here identifies the discloser's device or network.
create table incident.incident (
  id uuid primary key,
  company_id uuid not null references incident.company (id),
  display_report_number integer not null,
  retrieval_id text not null unique,
  status text not null default 'NEW' check (status in ('NEW', 'IN_PROGRESS', 'RESOLVED', 'CLOSED')),
  report_channel text not null check (report_channel in ('online', 'telephone', 'internal')),
  report_anonymously boolean not null,
  location_id uuid not null references incident.location (id),
  public_key text not null,
  aes_encrypted_private_key text not null,
  aes_salt text not null,
  aes_iv text not null,
  company_encrypted_passphrase text not null,
  discloser_encrypted_passphrase text not null,
  discloser_auth_token_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_activity_at timestamptz not null default now(),
  unique (company_id, display_report_number)
);
create table incident.incident_category (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  category_id uuid not null references incident.category (id),
  primary key (incident_id, category_id)
);
-- Report fields, each value encrypted to the incident key in the browser.
create table incident.incident_field (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  name text not null,
  value text not null,
  position integer not null,
  primary key (incident_id, name)
);
create table incident.message (
  id uuid primary key,
  incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  content text not null,
  sender_source text not null check (sender_source in ('DISCLOSER', 'STAFF')),
  sender_name text not null,
  -- The staff author once staff can write; null for the discloser, who has no account.
  sender_user_id uuid,
  created_at timestamptz not null default now()
);
create index message_incident_idx on incident.message (incident_id, created_at);
-- Files as the file service announced them (incident.file.created): metadata only, no name or key.
create table incident.file (
  id uuid primary key,
  incident_id uuid not null,
  company_id uuid not null,
  incident_message_id uuid,
  file_size bigint not null,
  mime_type text not null,
  created_at timestamptz not null
);
create index file_incident_idx on incident.file (incident_id, created_at);
