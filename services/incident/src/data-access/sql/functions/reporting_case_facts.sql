-- A case's dimension values in the reporting summary (docs/case-management.md, Reporting); the clocks as the
-- case page's (domain/cases/legal-clocks.ts): a clock stops when it is acknowledged or fed back, or when the case is
-- closed (a reopened case has no closed_at). next_due, the UTC day of the case's next_due_at (no row when no
-- clock runs); ack_time, feedback_time, close_time: how long the clock took, in a bucket (reporting_time_bucket),
-- so a median is found in its bucket from the summary.
-- Created by migration 008_reporting_summary, replaced by 009_reporting_now_and_medians; this file is its current text.
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
