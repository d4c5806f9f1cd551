-- Append-only: an entry is never updated or deleted (refuse_change).
-- Created by migration 001_audit_event; this file is its current text.
create or replace trigger audit_event_append_only before update or delete on audit.audit_event
  for each row execute function audit.refuse_change();
