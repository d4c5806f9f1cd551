-- Who did what, for the trail: an action in kebab-case, the actor (type, staff user id, the name they
-- had when it happened), success, and the case an entry belongs to (messages, notes and files too).
alter table audit.audit_event
  add column action text not null default '',
  add column actor_type text not null default 'SYSTEM' check (actor_type in ('STAFF', 'DISCLOSER', 'SYSTEM')),
  add column actor_user_id uuid,
  add column actor_name text not null default '',
  add column success boolean not null default true,
  add column incident_id uuid,
  add column seq bigint,
  add column prev_hash text,
  add column hash text;
create index audit_event_incident_idx on audit.audit_event (company_id, incident_id, occurred_at desc) where incident_id is not null;
create index audit_event_object_idx on audit.audit_event (company_id, object_id);
create index audit_event_actor_idx on audit.audit_event (company_id, actor_user_id, occurred_at desc);

-- Staff names as auth announced them, so an entry keeps the name a person had when they acted.
create table audit.staff_member (
  user_id uuid primary key,
  company_id uuid not null,
  full_name text not null,
  removed_at timestamptz
);
-- Logged-out tokens, until they would have expired anyway (the audit endpoint refuses them).
create table audit.revoked_token (jti text primary key, expires_at timestamptz not null);

-- Tamper evidence: each company's entries form a hash chain. The database computes it, on insert (the
-- trigger below) and on verification, with this one definition; any edit of a row breaks its link.
create table audit.chain_head (
  company_key uuid primary key,
  seq bigint not null default 0,
  hash text not null default ''
);
create function audit.entry_hash(e audit.audit_event) returns text language sql stable as $$
  select encode(sha256(convert_to(concat_ws('|',
    e.prev_hash, e.seq::text, e.id::text, coalesce(e.company_id::text, ''), e.name, e.version::text,
    e.action, e.actor_type, coalesce(e.actor_user_id::text, ''), e.actor_name, e.success::text,
    e.table_identifier, coalesce(e.object_id::text, ''), coalesce(e.incident_id::text, ''),
    to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    to_char(e.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    e.payload::text), 'UTF8')), 'hex')
$$;
create function audit.chain_key(company_id uuid) returns uuid language sql immutable as $$
  select coalesce(company_id, '00000000-0000-0000-0000-000000000000'::uuid)
$$;
-- The head row lock serialises a company's inserts, so concurrent consumers never fork its chain.
create function audit.link_entry() returns trigger language plpgsql as $$
declare head audit.chain_head;
begin
  insert into audit.chain_head (company_key) values (audit.chain_key(new.company_id)) on conflict do nothing;
  select * into head from audit.chain_head where company_key = audit.chain_key(new.company_id) for update;
  new.seq := head.seq + 1;
  new.prev_hash := head.hash;
  new.hash := audit.entry_hash(new);
  update audit.chain_head set seq = new.seq, hash = new.hash where company_key = head.company_key;
  return new;
end;
$$;

-- Entries recorded before the chain existed are linked once, in the order they were recorded.
alter table audit.audit_event disable trigger audit_event_append_only;
do $$
declare entry audit.audit_event;
declare head audit.chain_head;
begin
  for entry in select * from audit.audit_event order by recorded_at, occurred_at, id loop
    insert into audit.chain_head (company_key) values (audit.chain_key(entry.company_id)) on conflict do nothing;
    select * into head from audit.chain_head where company_key = audit.chain_key(entry.company_id);
    entry.action := replace(entry.name, '.', '-');
    entry.seq := head.seq + 1;
    entry.prev_hash := head.hash;
    entry.hash := audit.entry_hash(entry);
    update audit.audit_event set action = entry.action, seq = entry.seq, prev_hash = entry.prev_hash, hash = entry.hash
      where id = entry.id;
    update audit.chain_head set seq = entry.seq, hash = entry.hash where company_key = head.company_key;
  end loop;
end;
$$;
alter table audit.audit_event enable trigger audit_event_append_only;
alter table audit.audit_event alter column seq set not null, alter column prev_hash set not null,
  alter column hash set not null;
create unique index audit_event_chain_idx on audit.audit_event (audit.chain_key(company_id), seq);
create trigger audit_event_link before insert on audit.audit_event
  for each row execute function audit.link_entry();
