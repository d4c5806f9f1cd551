-- Per-case grants (issue 25 item 1, docs/security.md "Per-case grants"): the incident passphrase wrapped, in a
-- browser, to the ECDH key of each person who may open the case. The server stores what browsers send and hands each
-- person only their own row; it cannot open one.
--
-- staff_key: each person's current public key as auth announced it (user.keys_created), so a grant names a key the
-- service knows (by its opaque id and fingerprint) and a replaced key takes its grants with it.

create table incident.staff_key (
  user_id uuid primary key,
  company_id uuid not null,
  key_id uuid not null unique,
  public_key text not null,
  fingerprint text not null,
  created_at timestamptz not null default now()
);
create index staff_key_company_idx on incident.staff_key (company_id);

alter table incident.staff_key enable row level security;
create policy tenant_wall on incident.staff_key to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

create table incident.case_grant (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  user_id uuid not null,
  company_id uuid not null,
  -- The key the passphrase is wrapped to (staff_key.key_id) and its fingerprint when granted.
  key_id uuid not null,
  fingerprint text not null,
  -- v2 ECIES (purpose incident-passphrase, bound to the incident's and the recipient's public keys).
  wrapped_passphrase text not null,
  -- Who made it: a staff member's id, or null when the discloser's browser made it with the report.
  granted_by uuid,
  granted_at timestamptz not null default now(),
  primary key (incident_id, user_id)
);
create index case_grant_user_idx on incident.case_grant (company_id, user_id);

alter table incident.case_grant enable row level security;
create policy tenant_wall on incident.case_grant to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
