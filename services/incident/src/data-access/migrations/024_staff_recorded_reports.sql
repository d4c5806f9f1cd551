-- Reports taken by staff (EU directive art. 18, issue 26 item 2): a report received by telephone or in a meeting,
-- recorded (encrypted in the staff browser) by a staff member of the company. The reporter opens it with the secret
-- code staff passed on, checks the record and approves it. Both columns are on incident.incident, so the tenant wall
-- (012) and the table grants (015) already cover them.

alter table incident.incident add column recorded_by uuid;
alter table incident.incident add column record_approved_at timestamptz;
alter table incident.incident add constraint incident_recorded_by_channel
  check (recorded_by is null or report_channel in ('telephone', 'internal'));
alter table incident.incident add constraint incident_record_approved_recorded
  check (record_approved_at is null or recorded_by is not null);
