-- Reports arrive in batches (the report writer stores the reports arriving together in one statement:
-- docs/performance.md, "Report creation"). Two costs per report become one per batch, or none:

-- 1. The figures of the cases received are inserted once per statement, not by a trigger call and an insert
-- per case (which were 40 % of storing a batch of 20). Changes and deletions keep their row trigger
-- (reporting_case_changed, whose INSERT branch is no longer reached).
create function incident.reporting_cases_inserted() returns trigger language plpgsql as $$
begin
  insert into incident.reporting_delta (company_id, day, dimension, value, change)
  select n.company_id, incident.reporting_day(n.created_at), f.dimension, f.value, 1
    from inserted_cases n cross join lateral incident.reporting_case_facts(n) f;
  return null;
end;
$$;
drop trigger incident_reporting_inserted on incident.incident;
create trigger incident_reporting_inserted after insert on incident.incident
  referencing new table as inserted_cases for each statement
  execute function incident.reporting_cases_inserted();

-- 2. A new case may say when the deadline scheduler is first to look at it (when its first clock enters the
-- due-soon window, as the scheduler would plan it): looked at "now", every case was rewritten by the
-- scheduler's next scan only to be told that nothing was due for days, each one a second write of the row
-- and its indexes. A case inserted without it is looked at now, as before.
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
