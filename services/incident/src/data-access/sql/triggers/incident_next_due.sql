-- Keeps next_due_at (keep_next_due).
-- Created by migration 003_case_management; this file is its current text.
create or replace trigger incident_next_due before insert or update on incident.incident
  for each row execute function incident.keep_next_due();
