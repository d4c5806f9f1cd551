-- More of the reporting from the summary (docs/case-management.md, Reporting):
-- next_due, the UTC day of the case's next_due_at (kept by incident_next_due; no row when no clock runs): a
-- company's overdue cases are its rows due before today plus the few due today, read from
-- incident_next_due_idx ("open now" is there already: the status rows of every day);
-- ack_time, feedback_time, close_time: how long the clock took, in one of the buckets below, so a median is
-- found in its bucket from the summary and only that bucket's cases of the period are read to get it exactly.
create function incident.reporting_time_bucket(seconds numeric) returns integer language sql immutable as $$
  -- Hours, then days (1 day is 86,400 s): finer where most clocks stop (the directive's 7 days and 3 months),
  -- so a median's bucket holds a small part of the period's cases.
  select width_bucket(seconds, array[
    3600, 7200, 14400, 28800, 43200, 64800, 86400, 129600, 172800, 216000, 259200, 345600, 432000, 518400,
    604800, 691200, 864000, 1036800, 1209600, 1468800, 1814400, 2160000, 2592000, 3196800, 3888000, 4492800,
    5184000, 6480000, 7776000, 9072000, 10368000, 12960000, 15552000, 20736000, 31536000, 63072000]::numeric[])
$$;
-- The trigger first: it holds writers off until the summary below is complete.
drop trigger incident_reporting_updated on incident.incident;
create trigger incident_reporting_updated after update on incident.incident for each row
  when ((old.company_id, old.created_at, old.report_channel, old.status, old.outcome, old.location_id,
         old.acknowledged_at, old.feedback_at, old.closed_at, old.acknowledgement_due_at, old.feedback_due_at,
         old.next_due_at)
        is distinct from
        (new.company_id, new.created_at, new.report_channel, new.status, new.outcome, new.location_id,
         new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at, new.feedback_due_at,
         new.next_due_at))
  execute function incident.reporting_case_changed();
create or replace function incident.reporting_case_facts(i incident.incident)
  returns table (dimension text, value text)
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
  union all
  select 'next_due', to_char(i.next_due_at at time zone 'UTC', 'YYYY-MM-DD') where i.next_due_at is not null
  union all
  select 'ack_time', incident.reporting_time_bucket(extract(epoch from (i.acknowledged_at - i.created_at)))::text
   where i.acknowledged_at is not null
  union all
  select 'feedback_time', incident.reporting_time_bucket(extract(epoch from (i.feedback_at - i.created_at)))::text
   where i.feedback_at is not null
  union all
  select 'close_time', incident.reporting_time_bucket(extract(epoch from (i.closed_at - i.created_at)))::text
   where i.status = 'CLOSED' and i.closed_at is not null
$$;
-- A median's bucket, read for the period: the cases of one company and bucket, by receipt.
create index incident_ack_time_idx on incident.incident
  (company_id, incident.reporting_time_bucket(extract(epoch from (acknowledged_at - created_at))), created_at)
  include (acknowledged_at, id) where acknowledged_at is not null;
create index incident_feedback_time_idx on incident.incident
  (company_id, incident.reporting_time_bucket(extract(epoch from (feedback_at - created_at))), created_at)
  include (feedback_at, id) where feedback_at is not null;
create index incident_close_time_idx on incident.incident
  (company_id, incident.reporting_time_bucket(extract(epoch from (closed_at - created_at))), created_at)
  include (closed_at, id) where status = 'CLOSED' and closed_at is not null;
-- "Now" reads one dimension over every day of the company.
create index reporting_summary_dimension_idx on incident.reporting_summary (company_id, dimension, day);
insert into incident.reporting_summary (company_id, day, dimension, value, count)
select i.company_id, incident.reporting_day(i.created_at), f.dimension, f.value, count(*)
  from incident.incident i cross join lateral incident.reporting_case_facts(i) f
 where f.dimension in ('next_due', 'ack_time', 'feedback_time', 'close_time')
 group by 1, 2, 3, 4;
