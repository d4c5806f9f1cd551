-- The deadline scheduler (docs/case-management.md, Reminders). One row per reminder sent, written in the
-- transaction of its outbox event: the key makes a second emission impossible, whichever replica, restart
-- or retry attempts it. The due time is part of the key, so a clock restarted with a new due time
-- (reopening) is reminded of again.
create table incident.deadline_reminder (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  clock text not null check (clock in ('acknowledgement', 'feedback', 'resolution')),
  state text not null check (state in ('due_soon', 'overdue')),
  due_at timestamptz not null,
  sent_at timestamptz not null default now(),
  primary key (incident_id, clock, state, due_at)
);

-- When the scheduler must look at a case next; null when it has nothing left to remind of. next_due_at
-- cannot serve: a clock left overdue keeps it in the past for good, so every scan would walk every
-- overdue case again. The scheduler moves this past each reminder it sent; the trigger below brings it
-- back to now() whenever a clock starts, stops or moves. One index over all tenants.
alter table incident.incident add column deadline_check_at timestamptz;
update incident.incident set deadline_check_at = now() where status <> 'CLOSED';
create index incident_deadline_check_idx on incident.incident (deadline_check_at)
  where deadline_check_at is not null;

create function incident.wake_deadline_scheduler() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    new.deadline_check_at := case when new.status = 'CLOSED' then null else now() end;
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
create trigger incident_wake_deadline_scheduler before insert or update on incident.incident
  for each row execute function incident.wake_deadline_scheduler();
