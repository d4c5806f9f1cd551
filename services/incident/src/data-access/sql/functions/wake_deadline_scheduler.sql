-- Brings deadline_check_at back to now() whenever a clock starts, stops or moves, so the deadline scheduler
-- looks at the case again (docs/case-management.md, Reminders). A new case may say when the scheduler is first to
-- look at it (when its first clock enters the due-soon window, as the scheduler would plan it); one inserted
-- without it is looked at now.
-- Created by migration 004_deadline_reminders, replaced by 014_batched_report_writes; this file is its current text.
create or replace function incident.wake_deadline_scheduler() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    new.deadline_check_at := case when new.status = 'CLOSED' then null else coalesce(new.deadline_check_at, now()) end;
  elsif (new.status, new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at,
         new.feedback_due_at, new.resolution_due_at)
        is distinct from (old.status, old.acknowledged_at, old.feedback_at, old.closed_at,
         old.acknowledgement_due_at, old.feedback_due_at, old.resolution_due_at) then
    -- A closed case has no running clock: nothing to look at until it is reopened.
    new.deadline_check_at := case when new.status = 'CLOSED' then null else now() end;
  end if;
  return new;
end;
$$;
