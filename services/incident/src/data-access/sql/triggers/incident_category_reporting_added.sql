-- Labels given to cases, counted once per statement (reporting_labels_added).
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace trigger incident_category_reporting_added after insert on incident.incident_category
  referencing new table as added_labels for each statement
  execute function incident.reporting_labels_added();
