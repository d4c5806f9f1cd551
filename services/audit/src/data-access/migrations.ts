import { tenantRolePerSchemaSql, tenantWallSql, type Migration, type MigrationStream } from '@whistle/service-kit';

export const AUDIT_SCHEMA = 'audit';

const migrations: Migration[] = [
  {
    id: '001_audit_event',
    sql: `
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
    `,
  },
  {
    id: '002_audit_trail',
    sql: `
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
    `,
  },
  {
    // The tenant wall (docs/security.md): an admin's request reads its company's trail only, even through a query
    // that forgets company_id. Platform entries (no company) match no tenant. chain_head is a company's too: its
    // seq tells how many entries another company has. revoked_token (jtis) and the kit's outbox (audit publishes no
    // event) hold no company's data and stay open. The verification reads the caller's chain in its scope.
    id: '003_tenant_wall',
    sql: tenantWallSql(AUDIT_SCHEMA, [
      { table: 'audit_event', companyColumn: 'company_id' },
      { table: 'staff_member', companyColumn: 'company_id' },
      { table: 'chain_head', companyColumn: 'company_key' },
    ]),
  },
  {
    // One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
    // service shared, which keeps no right here. Another service's login can no longer switch to a role that
    // reaches this schema.
    // The role only reads here.
    id: '004_tenant_role_per_schema',
    sql: `${tenantRolePerSchemaSql(AUDIT_SCHEMA)}
      -- A tenant scope here only reads (admins read, verify and export the trail); entries come from the consumer,
      -- outside any scope. So the role reads: no tenant-scoped statement can write or rewrite an entry.
      revoke insert, update, delete, truncate on all tables in schema audit from whistle_tenant_audit;
      alter default privileges in schema audit revoke insert, update, delete on tables from whistle_tenant_audit;
    `,
  },
  {
    // The revocation list is @whistle/tokens' now (its 000_token_revocation, in this schema): the logged-out tokens
    // move there, and so do the removals of the last day (a removed member’s tokens stay refused).
    // Self-contained SQL: this text never changes with the package.
    id: '005_token_revocation_list',
    sql: `
      insert into audit.token_revocation (jti, expires_at)
        select jti, expires_at from audit.revoked_token where expires_at > now()
        on conflict (jti) do nothing;
      drop table audit.revoked_token;
      insert into audit.user_session_revocation (user_id, not_before, forget_after)
        select user_id::text, date_trunc('second', removed_at) + interval '1 second', removed_at + interval '1 day'
          from audit.staff_member where removed_at > now() - interval '1 day'
        on conflict (user_id) do nothing;
    `,
  },
];

export const auditMigrations: MigrationStream = { name: AUDIT_SCHEMA, migrations };
