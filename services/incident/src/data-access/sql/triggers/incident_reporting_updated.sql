-- A case changed in anything the figures count (reporting_case_changed); next_due_at moves the next_due row.
-- Created by migration 008_reporting_summary, replaced by 009_reporting_now_and_medians; this file is its current text.
create or replace trigger incident_reporting_updated after update on incident.incident for each row
  when ((old.company_id, old.created_at, old.report_channel, old.status, old.outcome, old.location_id,
         old.acknowledged_at, old.feedback_at, old.closed_at, old.acknowledgement_due_at, old.feedback_due_at,
         old.next_due_at)
        is distinct from
        (new.company_id, new.created_at, new.report_channel, new.status, new.outcome, new.location_id,
         new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at, new.feedback_due_at,
         new.next_due_at))
  execute function incident.reporting_case_changed();
