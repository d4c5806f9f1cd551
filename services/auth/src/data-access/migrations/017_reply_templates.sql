-- Reply templates (issue 23 item 4): texts an admin keeps for the company, which staff insert into a reply they are
-- writing (the reply is then encrypted like any message). Company configuration, not report content: stored in
-- clear, so they must not hold a case's details (docs/security.md). At most 100 a company (counted by the service
-- under a per-company lock).

create table auth.reply_template (
  id uuid primary key,
  company_id uuid not null references auth.company (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 80),
  body text not null check (char_length(body) between 1 and 5000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, name)
);

alter table auth.reply_template enable row level security;
create policy tenant_wall on auth.reply_template to whistle_tenant_auth using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
