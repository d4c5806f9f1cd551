-- Cases the incident service deleted for good (incident.deleted, retention): their files are gone, and an
-- upload still under way with a session token of such a case is refused instead of leaving an orphan.
create table file.deleted_incident (
  incident_id uuid primary key,
  company_id uuid not null,
  deleted_at timestamptz not null default now()
);
