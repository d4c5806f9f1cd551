-- The day a case counts for in the reporting summary: the UTC day it was received.
-- Created by migration 008_reporting_summary; this file is its current text.
create or replace function incident.reporting_day(at timestamptz) returns date language sql immutable as $$
  select (at at time zone 'UTC')::date
$$;
