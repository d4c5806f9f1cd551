-- Every entry joins its company's hash chain as it is inserted (link_entry).
-- Created by migration 002_audit_trail; this file is its current text.
create or replace trigger audit_event_link before insert on audit.audit_event
  for each row execute function audit.link_entry();
