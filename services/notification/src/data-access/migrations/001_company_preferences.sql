-- Read model of each company's notification settings, kept from auth's events.
create table notification.company_preferences (
  company_id uuid primary key,
  url_identifier text not null,
  name text not null,
  new_incidents boolean not null default true,
  assigned_to_an_incident boolean not null default true,
  incident_updates boolean not null default true,
  deadlines boolean not null default true
);
