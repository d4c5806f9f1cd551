-- The cases an insert received enter the figures, once per statement (reporting_cases_inserted).
-- Created by migration 008_reporting_summary, replaced by 014_batched_report_writes; this file is its current text.
create or replace trigger incident_reporting_inserted after insert on incident.incident
  referencing new table as inserted_cases for each statement
  execute function incident.reporting_cases_inserted();
