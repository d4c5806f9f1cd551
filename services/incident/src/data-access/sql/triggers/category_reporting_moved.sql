-- A label moved under another parent moves its cases' figures (reporting_label_moved).
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace trigger category_reporting_moved after update on incident.category
  referencing old table as old_categories new table as new_categories for each statement
  execute function incident.reporting_label_moved();
