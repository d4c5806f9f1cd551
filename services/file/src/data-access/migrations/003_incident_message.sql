-- The messages of each case, as the incident service announces them (incident.message.created): an upload
-- may name only a message of its own case. Ids only; the messages themselves stay with the incident service.
create table file.incident_message (
  id uuid primary key,
  company_id uuid not null,
  incident_id uuid not null
);
create index incident_message_incident_idx on file.incident_message (company_id, incident_id);
-- Who uploaded each file, so a discloser's uploads per hour can be counted (null: uploaded before this).
alter table file.file add column uploader text check (uploader in ('DISCLOSER', 'STAFF'));
create index file_message_idx on file.file (incident_id, incident_message_id);
