-- Labels given: a top-level label counts once per case, so it is added when the case had none under it
-- before the statement.
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace function incident.reporting_labels_added() returns trigger language plpgsql as $$
begin
  insert into incident.reporting_delta (company_id, day, dimension, value, change)
  select i.company_id, incident.reporting_day(i.created_at), 'label', added.top::text, 1
    from (select distinct n.incident_id, coalesce(c.parent_id, c.id) as top
            from added_labels n join incident.category c on c.id = n.category_id) added
    join incident.incident i on i.id = added.incident_id
   where not exists (
     select 1 from incident.incident_category ic join incident.category c on c.id = ic.category_id
      where ic.incident_id = added.incident_id and coalesce(c.parent_id, c.id) = added.top
        and not exists (select 1 from added_labels n
                         where n.incident_id = ic.incident_id and n.category_id = ic.category_id));
  return null;
end;
$$;
