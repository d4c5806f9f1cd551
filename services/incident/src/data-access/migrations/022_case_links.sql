-- Linked cases (issue 23 item 4): two cases about the same matter, linked by someone who may see both. Kept in both
-- directions, so each case lists its links from its own rows and a purged case takes every link to it with it.

create table incident.case_link (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  linked_incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  linked_by uuid not null,
  linked_at timestamptz not null default now(),
  primary key (incident_id, linked_incident_id),
  check (incident_id <> linked_incident_id)
);
create index case_link_linked_idx on incident.case_link (linked_incident_id);

alter table incident.case_link enable row level security;
create policy tenant_wall on incident.case_link to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
