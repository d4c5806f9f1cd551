-- Statuses after the EU directive and ISO 37002 (docs/case-management.md); earlier ones mapped onto them.
alter table incident.incident drop constraint incident_status_check;
update incident.incident set status = case status when 'IN_PROGRESS' then 'INVESTIGATION' when 'RESOLVED' then 'CLOSED' else status end;
alter table incident.incident add constraint incident_status_check
  check (status in ('NEW', 'ACKNOWLEDGED', 'ASSESSMENT', 'INVESTIGATION', 'CLOSED', 'REOPENED'));

-- A report's number is taken in the last statement before COMMIT, so a company's reports are not
-- created one at a time behind its counter's row lock (docs/performance.md); it is set whenever the
-- row is visible to anyone else.
alter table incident.incident alter column display_report_number drop not null;

-- What the company decided (auth's company.updated): the internal resolution target.
alter table incident.company add column resolution_deadline_days integer not null default 14;
-- Reporting labels keep their name for the cases that use them, even once auth deleted them.
alter table incident.category
  add column assignee_ids uuid[] not null default '{}',
  add column deleted boolean not null default false;

-- The clocks of each case, in UTC: due times are fixed when a clock starts, done times when it stops.
-- next_due_at is the earliest due time of a running clock (null when none runs): the overdue filter.
alter table incident.incident
  add column outcome text check (outcome in ('substantiated', 'unsubstantiated', 'inconclusive', 'referred',
    'out_of_scope', 'spam', 'withdrawn')),
  add column acknowledged_at timestamptz,
  add column feedback_at timestamptz,
  add column closed_at timestamptz,
  add column reopened_at timestamptz,
  add column acknowledgement_due_at timestamptz,
  add column feedback_due_at timestamptz,
  add column resolution_due_at timestamptz,
  add column next_due_at timestamptz,
  -- The case's first top-level label, for the category__name sort; kept when a label is renamed.
  add column sort_category text not null default '';
update incident.incident i set
  acknowledgement_due_at = i.created_at + interval '7 days',
  feedback_due_at = i.created_at + interval '7 days' + interval '3 months',
  resolution_due_at = i.created_at + make_interval(days => c.resolution_deadline_days),
  closed_at = case when i.status = 'CLOSED' then i.updated_at end
  from incident.company c where c.id = i.company_id;
update incident.incident i set sort_category = coalesce((
  select c.name from incident.incident_category ic join incident.category c on c.id = ic.category_id
   where ic.incident_id = i.id and c.parent_id is null order by c.name limit 1), '');
alter table incident.incident
  alter column acknowledgement_due_at set not null,
  alter column feedback_due_at set not null,
  alter column resolution_due_at set not null;

create function incident.next_due(i incident.incident) returns timestamptz language sql immutable as $$
  select case when i.status = 'CLOSED' then null else least(
    case when i.acknowledged_at is null then i.acknowledgement_due_at end,
    case when i.feedback_at is null then i.feedback_due_at end,
    i.resolution_due_at) end
$$;
create function incident.keep_next_due() returns trigger language plpgsql as $$
begin
  new.next_due_at := incident.next_due(new);
  return new;
end;
$$;
create trigger incident_next_due before insert or update on incident.incident
  for each row execute function incident.keep_next_due();
-- The trigger computes next_due_at for the cases already there.
update incident.incident set status = status;

-- The list's sorts and filters, each index-backed within a company (docs/performance.md).
create index incident_activity_idx on incident.incident (company_id, last_activity_at desc, id desc);
create index incident_created_idx on incident.incident (company_id, created_at desc, id desc);
create index incident_category_sort_idx on incident.incident (company_id, sort_category, id);
create index incident_status_idx on incident.incident (company_id, status);
create index incident_next_due_idx on incident.incident (company_id, next_due_at) where next_due_at is not null;
create index incident_category_category_idx on incident.incident_category (category_id);

-- Staff as auth announced them (user.* events): names for messages and history, who may be assigned.
create table incident.staff_member (
  user_id uuid primary key,
  company_id uuid not null,
  full_name text not null,
  roles text[] not null,
  removed_at timestamptz
);
create index staff_member_company_idx on incident.staff_member (company_id);
-- Logged-out tokens (token.revoked) until they would have expired: every replica refuses them.
create table incident.revoked_token (jti text primary key, expires_at timestamptz not null);

create table incident.assignee (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  user_id uuid not null,
  company_id uuid not null,
  assigned_at timestamptz not null default now(),
  primary key (incident_id, user_id)
);
create index assignee_user_idx on incident.assignee (company_id, user_id, incident_id);
-- Conflict of interest: a person excluded from a case can neither list nor open it.
create table incident.exclusion (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  user_id uuid not null,
  company_id uuid not null,
  excluded_at timestamptz not null default now(),
  primary key (incident_id, user_id)
);
create index exclusion_user_idx on incident.exclusion (company_id, user_id, incident_id);

create table incident.status_change (
  id uuid primary key,
  incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  from_status text,
  to_status text not null,
  outcome text,
  -- Written by staff about the case: encrypted to the incident key in the browser.
  motivation text,
  changed_by uuid,
  changed_at timestamptz not null default now()
);
create index status_change_incident_idx on incident.status_change (incident_id, changed_at);

-- Private staff notes, encrypted to the incident key in the browser, never shown to the discloser.
create table incident.note (
  id uuid primary key,
  incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  content text not null,
  author_user_id uuid not null,
  author_name text not null,
  created_at timestamptz not null default now()
);
create index note_incident_idx on incident.note (incident_id, created_at);

-- A staff reply marked as the feedback the directive requires.
alter table incident.message add column feedback boolean not null default false;
