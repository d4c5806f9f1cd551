-- The staff list's capped count (up to 10,001 matching cases) for each filter, as an index-only scan: the
-- filter's column, then the case id the caller's exclusions are checked against. Without the id, counting
-- the cases of one status read up to 50,000 entries of another index and their rows: 18–74 ms at 1,000,000
-- cases against 2–8 ms (docs/performance.md).
drop index incident.incident_status_idx;
create index incident_status_idx on incident.incident (company_id, status) include (id);
create index incident_channel_idx on incident.incident (company_id, report_channel) include (id);
create index incident_location_idx on incident.incident (company_id, location_id) include (id);
drop index incident.incident_next_due_idx;
create index incident_next_due_idx on incident.incident (company_id, next_due_at) include (id)
  where next_due_at is not null;
