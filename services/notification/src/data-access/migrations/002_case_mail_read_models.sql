-- Staff as auth announces them (user.* events): who to mail, in which language, with their own opt-outs.
create table notification.staff_member (
  user_id uuid primary key,
  company_id uuid not null,
  email text not null,
  roles text[] not null,
  language text not null default 'en',
  -- The member's own switches (spec §3 options); false = they turned that kind of mail off.
  notifications jsonb not null default '{}'
);
create index staff_member_company_idx on notification.staff_member (company_id);
-- Default assignees of each reporting label (category.* events): they hear of new reports with it.
create table notification.category_assignees (
  category_id uuid primary key,
  company_id uuid not null,
  assignee_ids uuid[] not null
);
-- What a mail about a case needs: its number, who works it and who is excluded from it (incident.* events).
create table notification.incident (
  incident_id uuid primary key,
  company_id uuid not null,
  display_report_number integer not null,
  assignee_ids uuid[] not null default '{}',
  excluded_ids uuid[] not null default '{}'
);
