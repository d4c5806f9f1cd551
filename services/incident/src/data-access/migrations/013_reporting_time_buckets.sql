-- A median's bucket read in a company's scope (012): the policy's condition is applied first, and a condition
-- of the query that calls a function not marked LEAKPROOF (extract, timestamptz minus,
-- reporting_time_bucket) is kept after it, so the bucket of 009's expression indexes was no longer an index
-- condition: the scan read every stopped clock of the company's period, not one bucket's (at 30,000 cases,
-- 24,000 entries for 4,106). Marking them LEAKPROOF takes a superuser. The buckets as stored columns, compared
-- with integer equality (leakproof), are an index condition again; the same expressions as the case facts' (009).
-- Adding them rewrites the table once, writers waiting meanwhile (1.5 s at 60,000 cases on PostgreSQL).
alter table incident.incident
  add column ack_time_bucket integer generated always as
    (incident.reporting_time_bucket(extract(epoch from (acknowledged_at - created_at)))) stored,
  add column feedback_time_bucket integer generated always as
    (incident.reporting_time_bucket(extract(epoch from (feedback_at - created_at)))) stored,
  add column close_time_bucket integer generated always as
    (incident.reporting_time_bucket(extract(epoch from (closed_at - created_at)))) stored;
drop index incident.incident_ack_time_idx;
drop index incident.incident_feedback_time_idx;
drop index incident.incident_close_time_idx;
create index incident_ack_time_idx on incident.incident (company_id, ack_time_bucket, created_at)
  include (acknowledged_at, id) where acknowledged_at is not null;
create index incident_feedback_time_idx on incident.incident (company_id, feedback_time_bucket, created_at)
  include (feedback_at, id) where feedback_at is not null;
create index incident_close_time_idx on incident.incident (company_id, close_time_bucket, created_at)
  include (closed_at, id) where status = 'CLOSED' and closed_at is not null;
