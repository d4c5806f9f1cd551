-- A label moved under another parent (auth does not do it today; the read model would follow): its cases
-- count for the new top-level label instead.
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace function incident.reporting_label_moved() returns trigger language plpgsql as $$
begin
  with moved as (
         select o.id, coalesce(o.parent_id, o.id) as old_top
           from old_categories o join new_categories n on n.id = o.id
          where o.parent_id is distinct from n.parent_id),
       affected as (
         select distinct ic.incident_id from incident.incident_category ic join moved m on m.id = ic.category_id),
       before as (
         select distinct a.incident_id, coalesce(m.old_top, c.parent_id, c.id) as top
           from affected a join incident.incident_category ic on ic.incident_id = a.incident_id
           join incident.category c on c.id = ic.category_id left join moved m on m.id = c.id),
       after as (
         select distinct a.incident_id, coalesce(c.parent_id, c.id) as top
           from affected a join incident.incident_category ic on ic.incident_id = a.incident_id
           join incident.category c on c.id = ic.category_id),
       changes as (
         (select incident_id, top, -1 as change from (select * from before except select * from after) gone)
         union all
         (select incident_id, top, 1 from (select * from after except select * from before) came))
  insert into incident.reporting_delta (company_id, day, dimension, value, change)
  select i.company_id, incident.reporting_day(i.created_at), 'label', changes.top::text, changes.change
    from changes join incident.incident i on i.id = changes.incident_id;
  return null;
end;
$$;
