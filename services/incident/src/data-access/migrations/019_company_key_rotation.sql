-- A company key rotation (docs/security.md, "Rotation"). Which company key version a case's wrapping is under
-- (null: not known — cases from before, and reports, which name no version: the rotating browser tries the keys
-- it holds), and the company's current and previous versions from auth's events.

alter table incident.incident add column company_key_version integer;
alter table incident.company
  add column key_version integer not null default 1,
  add column previous_key_version integer;
