-- The discloser keeps people out (issue 25 item 2, docs/security.md "Keeping people out").
--
-- by_reporter: the exclusion came with the report, chosen by the discloser; staff cannot lift it.
alter table incident.exclusion add column by_reporter boolean not null default false;

-- A report that excludes an admin is not wrapped to the company key (every admin could open it with that); its
-- passphrase is wrapped to the remaining readers' own keys only (incident.case_grant).
alter table incident.incident alter column company_encrypted_passphrase drop not null;
