create table audit.audit_event (
  id uuid primary key,              -- the event id: a redelivered event is recorded once
  company_id uuid,
  name text not null,
  version integer not null,
  table_identifier text not null,   -- what the event is about: company, user_profile, incident, ...
  object_id uuid,
  occurred_at timestamptz not null,
  recorded_at timestamptz not null default now(),
  payload jsonb not null            -- ids, numbers, statuses only: the event catalogue allows nothing else
);
create index audit_event_company_idx on audit.audit_event (company_id, occurred_at desc);

-- Append-only: history cannot be rewritten, not even by the service's own code.
create function audit.refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit.audit_event is append-only';
end;
$$;
create trigger audit_event_append_only before update or delete on audit.audit_event
  for each row execute function audit.refuse_change();
