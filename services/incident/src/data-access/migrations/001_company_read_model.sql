-- What the incident service knows of companies, kept from auth's events (services never read each
-- other's tables): a report is checked against these ids, and numbered per company.
create table incident.company (
  id uuid primary key,
  url_identifier text not null unique,
  next_report_number integer not null default 1
);
create table incident.category (
  id uuid primary key,
  company_id uuid not null references incident.company (id) on delete cascade,
  parent_id uuid,
  name text not null,
  is_active boolean not null
);
create index category_company_idx on incident.category (company_id);
create table incident.location (
  id uuid primary key,
  company_id uuid not null references incident.company (id) on delete cascade,
  name text not null,
  is_active boolean not null
);
create index location_company_idx on incident.location (company_id);
