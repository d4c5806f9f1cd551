-- Admins' endorsements of team members' signing keys (docs/security.md, "Signed staff messages"): made and signed in
-- an admin's browser, served in the public company view so that a discloser's page trusts a key its report did not
-- pin (a member approved, or a key made, after the report). The server cannot make one: it holds no signing key.
create table auth.key_endorsement (
  company_id uuid not null references auth.company (id) on delete cascade,
  -- Key ids outlive the keys (no foreign key): a reply signed with a key since replaced must still verify, so its
  -- endorsement stays after a reset; the admin page asks for one of the new key.
  key_id uuid not null,
  signing_public_key text not null,
  role text not null check (role in ('ADMIN', 'REVIEWER', 'HANDLER')),
  -- The endorsing browser's clock, as signed.
  endorsed_at text not null,
  endorser_key_id uuid not null,
  endorsed_by uuid,
  signature text not null,
  created_at timestamptz not null default now(),
  -- One per endorser: a new one (a new role) replaces it.
  primary key (company_id, key_id, endorser_key_id),
  check (key_id <> endorser_key_id)
);

alter table auth.key_endorsement enable row level security;
create policy tenant_wall on auth.key_endorsement to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
