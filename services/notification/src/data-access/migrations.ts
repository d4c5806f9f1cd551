import { tenantRolePerSchemaSql, tenantWallSql, type Migration, type MigrationStream } from '@whistle/service-kit';

export const NOTIFICATION_SCHEMA = 'notification';

const migrations: Migration[] = [
  {
    id: '001_company_preferences',
    sql: `
      -- Read model of each company's notification settings, kept from auth's events.
      create table notification.company_preferences (
        company_id uuid primary key,
        url_identifier text not null,
        name text not null,
        new_incidents boolean not null default true,
        assigned_to_an_incident boolean not null default true,
        incident_updates boolean not null default true,
        deadlines boolean not null default true
      );
    `,
  },
  {
    id: '002_case_mail_read_models',
    sql: `
      -- Staff as auth announces them (user.* events): who to mail, in which language, with their own opt-outs.
      create table notification.staff_member (
        user_id uuid primary key,
        company_id uuid not null,
        email text not null,
        roles text[] not null,
        language text not null default 'en',
        -- The member's own switches (spec §3 options); false = they turned that kind of mail off.
        notifications jsonb not null default '{}'
      );
      create index staff_member_company_idx on notification.staff_member (company_id);
      -- Default assignees of each reporting label (category.* events): they hear of new reports with it.
      create table notification.category_assignees (
        category_id uuid primary key,
        company_id uuid not null,
        assignee_ids uuid[] not null
      );
      -- What a mail about a case needs: its number, who works it and who is excluded from it (incident.* events).
      create table notification.incident (
        incident_id uuid primary key,
        company_id uuid not null,
        display_report_number integer not null,
        assignee_ids uuid[] not null default '{}',
        excluded_ids uuid[] not null default '{}'
      );
    `,
  },
  {
    id: '003_mail_queue',
    sql: `
      -- Mails waiting for the mail server, written in the same transaction as the event that caused them: an
      -- event is handled (and acked) once, whether or not SMTP is up; a mail leaves the queue once sent.
      create table notification.mail_queue (
        id bigserial primary key,
        recipient text not null,
        subject text not null,
        body text not null,
        attempts integer not null default 0,
        -- After a failed send, the next try waits (backoff); a claimed row belongs to one dispatcher for a while.
        not_before timestamptz not null default now(),
        claimed_until timestamptz
      );
      create index mail_queue_due_idx on notification.mail_queue (not_before);
    `,
  },
  {
    // The tenant wall (docs/security.md), for any request that will read this schema in a company's scope (none
    // does yet: the service only consumes events and sends mails, outside any scope). A queued mail is a company's
    // too (a staff address, a case number): it now says whose; one queued before has no company and matches no
    // tenant, while the dispatcher, which is no tenant, still sends it. The outbox (the kit's; the service
    // publishes nothing) holds no company's data and stays open.
    id: '004_tenant_wall',
    sql: `
      alter table notification.mail_queue add column company_id uuid;
      ${tenantWallSql(NOTIFICATION_SCHEMA, [
        { table: 'company_preferences', companyColumn: 'company_id' },
        { table: 'staff_member', companyColumn: 'company_id' },
        { table: 'category_assignees', companyColumn: 'company_id' },
        { table: 'incident', companyColumn: 'company_id' },
        { table: 'mail_queue', companyColumn: 'company_id' },
      ])}
    `,
  },
  {
    // One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
    // service shared, which keeps no right here. Another service's login can no longer switch to a role that
    // reaches this schema.
    id: '005_tenant_role_per_schema',
    sql: tenantRolePerSchemaSql(NOTIFICATION_SCHEMA),
  },
];

export const notificationMigrations: MigrationStream = { name: NOTIFICATION_SCHEMA, migrations };
