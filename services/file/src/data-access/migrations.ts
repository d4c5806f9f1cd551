import { tenantRolePerSchemaSql, tenantWallSql, type Migration, type MigrationStream } from '@whistle/service-kit';

export const FILE_SCHEMA = 'file';

const migrations: Migration[] = [
  {
    id: '001_file',
    sql: `
      -- An encrypted file's metadata; its bytes are in the object store under object_key. file_name
      -- and encrypted_key are the browser's ciphertexts; size (of the plaintext) and mime type are clear.
      create table file.file (
        id uuid primary key,
        company_id uuid not null,
        incident_id uuid not null,
        incident_message_id uuid,
        object_key text not null unique,
        file_name text not null,
        encrypted_key text not null,
        file_size bigint not null check (file_size >= 0),
        mime_type text not null,
        created_at timestamptz not null default now()
      );
      create index file_incident_idx on file.file (company_id, incident_id);
    `,
  },
  {
    id: '002_deleted_incident',
    sql: `
      -- Cases the incident service deleted for good (incident.deleted, retention): their files are gone, and an
      -- upload still under way with a session token of such a case is refused instead of leaving an orphan.
      create table file.deleted_incident (
        incident_id uuid primary key,
        company_id uuid not null,
        deleted_at timestamptz not null default now()
      );
    `,
  },
  {
    id: '003_incident_message',
    sql: `
      -- The messages of each case, as the incident service announces them (incident.message.created): an upload
      -- may name only a message of its own case. Ids only; the messages themselves stay with the incident service.
      create table file.incident_message (
        id uuid primary key,
        company_id uuid not null,
        incident_id uuid not null
      );
      create index incident_message_incident_idx on file.incident_message (company_id, incident_id);
      -- Who uploaded each file, so a discloser's uploads per hour can be counted (null: uploaded before this).
      alter table file.file add column uploader text check (uploader in ('DISCLOSER', 'STAFF'));
      create index file_message_idx on file.file (incident_id, incident_message_id);
    `,
  },
  {
    // The tenant wall (docs/security.md): a verified caller's request sees its company's files, messages and deleted
    // cases only, even through a query that forgets company_id. The outbox (ids of events the relay must publish for
    // every company) and rate_limit_counter (HMAC-ed client addresses) hold no company's data and stay open.
    id: '004_tenant_wall',
    sql: tenantWallSql(FILE_SCHEMA, [
      { table: 'file', companyColumn: 'company_id' },
      { table: 'incident_message', companyColumn: 'company_id' },
      { table: 'deleted_incident', companyColumn: 'company_id' },
    ]),
  },
  {
    // One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
    // service shared, which keeps no right here. Another service's login can no longer switch to a role that
    // reaches this schema.
    id: '005_tenant_role_per_schema',
    sql: tenantRolePerSchemaSql(FILE_SCHEMA),
  },
];

export const fileMigrations: MigrationStream = { name: FILE_SCHEMA, migrations };
