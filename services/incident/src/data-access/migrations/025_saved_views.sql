-- Saved views (issue 23 item 2): a staff member's named filter sets for the case list, theirs alone. A view keeps
-- the list's parameters only (filters, sort, page size as @whistle/contracts' savedViewFiltersSchema checks
-- them), never report content. At most 50 a person (the service counts under a per-person lock).

create table incident.saved_view (
  id uuid primary key,
  company_id uuid not null,
  user_id uuid not null,
  name text not null check (char_length(name) between 1 and 80),
  filters jsonb not null check (jsonb_typeof(filters) = 'object'),
  created_at timestamptz not null default now(),
  unique (company_id, user_id, name)
);

alter table incident.saved_view enable row level security;
create policy tenant_wall on incident.saved_view to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
