-- Tamper evidence: an entry's hash, over its link to the previous one and every column it holds. The
-- database computes it, on insert (link_entry) and on verification, with this one definition; any edit of a row breaks
-- its link.
-- Created by migration 002_audit_trail; this file is its current text.
create or replace function audit.entry_hash(e audit.audit_event) returns text language sql stable as $$
  select encode(sha256(convert_to(concat_ws('|',
    e.prev_hash, e.seq::text, e.id::text, coalesce(e.company_id::text, ''), e.name, e.version::text,
    e.action, e.actor_type, coalesce(e.actor_user_id::text, ''), e.actor_name, e.success::text,
    e.table_identifier, coalesce(e.object_id::text, ''), coalesce(e.incident_id::text, ''),
    to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    to_char(e.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    e.payload::text), 'UTF8')), 'hex')
$$;
