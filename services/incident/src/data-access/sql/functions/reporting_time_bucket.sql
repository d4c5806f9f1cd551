-- How long a clock took, as a bucket of the reporting summary (ack_time, feedback_time, close_time) and of
-- the stored columns ack_time_bucket, feedback_time_bucket and close_time_bucket: a median is found in its bucket,
-- and only that bucket's cases of the period are read to get it exactly. Those columns are computed with it: a
-- change of the buckets needs a migration that recomputes them.
-- Created by migration 009_reporting_now_and_medians; this file is its current text.
create or replace function incident.reporting_time_bucket(seconds numeric) returns integer language sql immutable as $$
  -- Hours, then days (1 day is 86,400 s): finer where most clocks stop (the directive's 7 days and 3 months),
  -- so a median's bucket holds a small part of the period's cases.
  select width_bucket(seconds, array[
    3600, 7200, 14400, 28800, 43200, 64800, 86400, 129600, 172800, 216000, 259200, 345600, 432000, 518400,
    604800, 691200, 864000, 1036800, 1209600, 1468800, 1814400, 2160000, 2592000, 3196800, 3888000, 4492800,
    5184000, 6480000, 7776000, 9072000, 10368000, 12960000, 15552000, 20736000, 31536000, 63072000]::numeric[])
$$;
