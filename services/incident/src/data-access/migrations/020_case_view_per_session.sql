-- A case's opening is recorded once per person and sign-in (issue 23 item 3): the sessions in which each staff
-- member opened each case, by the sign-in time their tokens carry (auth_time; refreshed tokens keep it). Only the
-- first opening of a session emits incident.viewed; the rows go with their case.

create table incident.case_view (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  user_id uuid not null,
  signed_in_at timestamptz not null,
  primary key (incident_id, user_id, signed_in_at)
);

alter table incident.case_view enable row level security;
create policy tenant_wall on incident.case_view to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
