-- Closing (or a closing time set otherwise) fixes the date from the company's policy; reopening clears it.
-- Other updates leave it alone: a policy change moves it itself (with its grace period).
-- Created by migration 006_retention; this file is its current text.
create or replace function incident.keep_purge_at() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' or (new.status, new.closed_at) is distinct from (old.status, old.closed_at) then
    if new.status = 'CLOSED' and new.closed_at is not null then
      new.purge_at := new.closed_at + make_interval(months => (
        select c.retention_months from incident.company c where c.id = new.company_id));
    else
      new.purge_at := null;
    end if;
  end if;
  return new;
end;
$$;
