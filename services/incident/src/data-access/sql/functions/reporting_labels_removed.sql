-- Labels taken: a top-level label is taken off a case's figures when none is left under it after the
-- statement.
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace function incident.reporting_labels_removed() returns trigger language plpgsql as $$
begin
  -- A case deleted with its labels is not found here: its delete trigger took them off already.
  insert into incident.reporting_delta (company_id, day, dimension, value, change)
  select i.company_id, incident.reporting_day(i.created_at), 'label', removed.top::text, -1
    from (select distinct o.incident_id, coalesce(c.parent_id, c.id) as top
            from removed_labels o join incident.category c on c.id = o.category_id) removed
    join incident.incident i on i.id = removed.incident_id
   where removed.top not in (select incident.reporting_case_labels(removed.incident_id));
  return null;
end;
$$;
