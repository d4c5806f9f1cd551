-- Keeps purge_at, when a closed case is deleted for good (keep_purge_at).
-- Created by migration 006_retention; this file is its current text.
create or replace trigger incident_keep_purge_at before insert or update on incident.incident
  for each row execute function incident.keep_purge_at();
