-- Labels taken from cases, counted once per statement (reporting_labels_removed).
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace trigger incident_category_reporting_removed after delete on incident.incident_category
  referencing old table as removed_labels for each statement
  execute function incident.reporting_labels_removed();
