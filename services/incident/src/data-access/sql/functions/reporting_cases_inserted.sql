-- The figures of the cases received, inserted once per statement, not by a trigger call and an insert
-- per case (which were 40 % of storing a batch of 20: docs/performance.md, "Report creation").
-- Created by migration 014_batched_report_writes; this file is its current text.
create or replace function incident.reporting_cases_inserted() returns trigger language plpgsql as $$
begin
  insert into incident.reporting_delta (company_id, day, dimension, value, change)
  select n.company_id, incident.reporting_day(n.created_at), f.dimension, f.value, 1
    from inserted_cases n cross join lateral incident.reporting_case_facts(n) f;
  return null;
end;
$$;
