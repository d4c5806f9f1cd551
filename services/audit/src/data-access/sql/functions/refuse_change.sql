-- Append-only: history cannot be rewritten, not even by the service's own code.
-- Created by migration 001_audit_event; this file is its current text.
create or replace function audit.refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit.audit_event is append-only';
end;
$$;
