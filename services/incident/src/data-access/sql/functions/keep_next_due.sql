-- Keeps next_due_at, the overdue filter, as the clocks start, stop and move.
-- Created by migration 003_case_management; this file is its current text.
create or replace function incident.keep_next_due() returns trigger language plpgsql as $$
begin
  new.next_due_at := incident.next_due(new);
  return new;
end;
$$;
