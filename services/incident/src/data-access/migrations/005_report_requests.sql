-- Idempotency keys of report creations: a create sent again (its answer was lost on the way) finds the
-- report the first one stored instead of storing a second. The request's hash tells a retry from a
-- different report under the same key. Removed after a day (and with their report).
create table incident.report_request (
  company_id uuid not null,
  idempotency_key text not null,
  request_hash text not null,
  -- Written before the report row in the same transaction, so a concurrent duplicate waits on the key.
  incident_id uuid not null references incident.incident (id) on delete cascade deferrable initially deferred,
  created_at timestamptz not null default now(),
  primary key (company_id, idempotency_key)
);
create index report_request_created_idx on incident.report_request (created_at);
