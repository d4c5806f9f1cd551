-- A case deleted leaves the figures, before its row and labels go (reporting_case_changed).
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace trigger incident_reporting_deleted before delete on incident.incident
  for each row execute function incident.reporting_case_changed();
