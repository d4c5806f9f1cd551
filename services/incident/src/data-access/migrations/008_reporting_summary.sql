-- Reporting from a per-day summary (docs/case-management.md, Reporting; docs/performance.md): the company's
-- case counts by the day a case was received (UTC) and by one dimension and value at a time, so a figure
-- reads a few rows a day instead of every case of the period. Dimensions: channel, status, outcome, location,
-- label (top-level label id; a case with a label and its sub-label counts once), ack and feedback ('met' or
-- 'late' once the clock stopped) and ack_pending_due, feedback_pending_due (clock still running: the UTC day
-- it falls due, so "run out by now" stays exact whenever it is asked).
create table incident.reporting_summary (
  company_id uuid not null,
  day date not null,
  dimension text not null,
  value text not null,
  count integer not null,
  primary key (company_id, day, dimension, value)
);
-- What changed since the last fold: insert-only, +1 / -1 per dimension value, written by the triggers below
-- in the transaction of the change, so no writer waits for another (nothing shared is updated). The fold job
-- moves them into the summary; a reading adds the few not folded yet.
create table incident.reporting_delta (
  company_id uuid not null,
  day date not null,
  dimension text not null,
  value text not null,
  change integer not null
);
create index reporting_delta_company_idx on incident.reporting_delta (company_id, day);

create function incident.reporting_day(at timestamptz) returns date language sql immutable as $$
  select (at at time zone 'UTC')::date
$$;

-- A case's dimension values; the clocks as the case page's (domain/cases/clocks.ts): a clock stops when it
-- is acknowledged or fed back, or when the case is closed (a reopened case has no closed_at).
create function incident.reporting_case_facts(i incident.incident) returns table (dimension text, value text)
language sql immutable as $$
  with done as (
    select coalesce(i.acknowledged_at, case when i.status = 'CLOSED' then i.closed_at end) as ack,
           coalesce(i.feedback_at, case when i.status = 'CLOSED' then i.closed_at end) as feedback)
  select 'channel', i.report_channel
  union all select 'status', i.status
  union all select 'outcome', i.outcome where i.outcome is not null
  union all select 'location', i.location_id::text
  union all
  select case when d.ack is null then 'ack_pending_due' else 'ack' end,
         case when d.ack is null then to_char(i.acknowledgement_due_at at time zone 'UTC', 'YYYY-MM-DD')
              when d.ack <= i.acknowledgement_due_at then 'met' else 'late' end
    from done d
  union all
  select case when d.feedback is null then 'feedback_pending_due' else 'feedback' end,
         case when d.feedback is null then to_char(i.feedback_due_at at time zone 'UTC', 'YYYY-MM-DD')
              when d.feedback <= i.feedback_due_at then 'met' else 'late' end
    from done d
$$;

-- A case's top-level labels (a sub-label stands for its parent), each once.
create function incident.reporting_case_labels(incident_id uuid) returns setof uuid language sql stable as $$
  select distinct coalesce(c.parent_id, c.id)
    from incident.incident_category ic join incident.category c on c.id = ic.category_id
   where ic.incident_id = reporting_case_labels.incident_id
$$;

-- A case received, changed in what is counted, or deleted (retention). Deleting is seen before the row goes:
-- its labels are still there then (their rows go with the case, and say nothing then: the case is gone).
create function incident.reporting_case_changed() returns trigger language plpgsql as $$
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
create trigger incident_reporting_inserted after insert on incident.incident
  for each row execute function incident.reporting_case_changed();
create trigger incident_reporting_deleted before delete on incident.incident
  for each row execute function incident.reporting_case_changed();
create trigger incident_reporting_updated after update on incident.incident for each row
  when ((old.company_id, old.created_at, old.report_channel, old.status, old.outcome, old.location_id,
         old.acknowledged_at, old.feedback_at, old.closed_at, old.acknowledgement_due_at, old.feedback_due_at)
        is distinct from
        (new.company_id, new.created_at, new.report_channel, new.status, new.outcome, new.location_id,
         new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at, new.feedback_due_at))
  execute function incident.reporting_case_changed();

-- Labels given or taken: a top-level label counts once per case, so it is added when the case had none
-- under it before the statement, and taken when none is left after it.
create function incident.reporting_labels_added() returns trigger language plpgsql as $$
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
create function incident.reporting_labels_removed() returns trigger language plpgsql as $$
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
create trigger incident_category_reporting_added after insert on incident.incident_category
  referencing new table as added_labels for each statement
  execute function incident.reporting_labels_added();
create trigger incident_category_reporting_removed after delete on incident.incident_category
  referencing old table as removed_labels for each statement
  execute function incident.reporting_labels_removed();

-- A label moved under another parent (auth does not do it today; the read model would follow): its cases
-- count for the new top-level label instead.
create function incident.reporting_label_moved() returns trigger language plpgsql as $$
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
create trigger category_reporting_moved after update on incident.category
  referencing old table as old_categories new table as new_categories for each statement
  execute function incident.reporting_label_moved();

-- The figures of the cases already there (the triggers above hold writers off until this commits).
insert into incident.reporting_summary (company_id, day, dimension, value, count)
select i.company_id, incident.reporting_day(i.created_at), f.dimension, f.value, count(*)
  from incident.incident i cross join lateral incident.reporting_case_facts(i) f
 group by 1, 2, 3, 4;
insert into incident.reporting_summary (company_id, day, dimension, value, count)
select i.company_id, incident.reporting_day(i.created_at), 'label', labels.top::text, count(*)
  from (select distinct ic.incident_id, coalesce(c.parent_id, c.id) as top
          from incident.incident_category ic join incident.category c on c.id = ic.category_id) labels
  join incident.incident i on i.id = labels.incident_id
 group by 1, 2, 4;
