-- The earliest due time of a case's running clocks; null when none runs (a closed case).
-- Created by migration 003_case_management; this file is its current text.
create or replace function incident.next_due(i incident.incident) returns timestamptz language sql immutable as $$
  select case when i.status = 'CLOSED' then null else least(
    case when i.acknowledged_at is null then i.acknowledgement_due_at end,
    case when i.feedback_at is null then i.feedback_due_at end,
    i.resolution_due_at) end
$$;
