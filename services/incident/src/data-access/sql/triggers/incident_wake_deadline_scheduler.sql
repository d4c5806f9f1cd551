-- Keeps deadline_check_at (wake_deadline_scheduler).
-- Created by migration 004_deadline_reminders; this file is its current text.
create or replace trigger incident_wake_deadline_scheduler before insert or update on incident.incident
  for each row execute function incident.wake_deadline_scheduler();
