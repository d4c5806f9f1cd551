-- A case's top-level labels (a sub-label stands for its parent), each once.
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace function incident.reporting_case_labels(incident_id uuid) returns setof uuid language sql stable as $$
  select distinct coalesce(c.parent_id, c.id)
    from incident.incident_category ic join incident.category c on c.id = ic.category_id
   where ic.incident_id = reporting_case_labels.incident_id
$$;
