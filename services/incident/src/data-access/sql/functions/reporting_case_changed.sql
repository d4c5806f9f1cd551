-- A case changed in what is counted, or deleted (retention). Deleting is seen before the row goes:
-- its labels are still there then (their rows go with the case, and say nothing then: the case is gone). Cases
-- received are counted per statement instead (reporting_cases_inserted): the INSERT branch is no longer reached.
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace function incident.reporting_case_changed() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    insert into incident.reporting_delta (company_id, day, dimension, value, change)
    select old.company_id, incident.reporting_day(old.created_at), f.dimension, f.value, -1
      from incident.reporting_case_facts(old) f
    where tg_op = 'DELETE' or (old.company_id, incident.reporting_day(old.created_at), f.dimension, f.value)
      not in (select new.company_id, incident.reporting_day(new.created_at), n.dimension, n.value
                from incident.reporting_case_facts(new) n);
  end if;
  if tg_op <> 'DELETE' then
    insert into incident.reporting_delta (company_id, day, dimension, value, change)
    select new.company_id, incident.reporting_day(new.created_at), f.dimension, f.value, 1
      from incident.reporting_case_facts(new) f
    where tg_op = 'INSERT' or (new.company_id, incident.reporting_day(new.created_at), f.dimension, f.value)
      not in (select old.company_id, incident.reporting_day(old.created_at), o.dimension, o.value
                from incident.reporting_case_facts(old) o);
  end if;
  -- Its labels move with it to another day (or are gone with it).
  if tg_op = 'DELETE' or (old.company_id, incident.reporting_day(old.created_at))
                         is distinct from (new.company_id, incident.reporting_day(new.created_at)) then
    insert into incident.reporting_delta (company_id, day, dimension, value, change)
    select old.company_id, incident.reporting_day(old.created_at), 'label', top::text, -1
      from incident.reporting_case_labels(old.id) top;
    if tg_op = 'UPDATE' then
      insert into incident.reporting_delta (company_id, day, dimension, value, change)
      select new.company_id, incident.reporting_day(new.created_at), 'label', top::text, 1
        from incident.reporting_case_labels(new.id) top;
    end if;
  end if;
  -- Before a delete, the row must be handed back or it would not be deleted.
  return case when tg_op = 'DELETE' then old end;
end;
$$;
