-- How far each staff member has read each case's thread (issue 23 item 2, the list's unread marker): the sending
-- time of the newest discloser message the case page gave them, no content. The list counts the discloser messages
-- after it; the rows go with their case.

create table incident.case_read (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  user_id uuid not null,
  read_up_to timestamptz not null,
  primary key (incident_id, user_id)
);

alter table incident.case_read enable row level security;
create policy tenant_wall on incident.case_read to whistle_tenant_incident using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid) with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);

-- A page's unread counts read only the discloser's messages after each case's mark, from this index alone (the
-- company for the tenant wall's policy).
create index message_discloser_idx on incident.message (incident_id, created_at) include (company_id)
  where sender_source = 'DISCLOSER';
