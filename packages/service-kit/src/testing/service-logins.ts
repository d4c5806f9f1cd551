import type { Queryable } from '../database';
import { SHARED_TENANT_ROLE, tenantRoleFor } from '../database/tenant-wall';

/**
 * What an administrator runs once per service (docs/operations.md, "Database roles"): a login of its own (no
 * CREATEROLE: with it, a login could grant itself any other service's role), its schema owned by it, and the schema's
 * tenant role granted to it alone. Tenant roles are the PostgreSQL cluster's and shared by every database on it
 * (parallel test runs too): one that exists already is kept.
 */
export function serviceLoginSql({
  login,
  schema,
  password,
}: {
  login: string;
  schema: string;
  /** Omitted: a role without a password (PGlite, where nobody connects; or trust authentication). */
  password?: string;
}): string[] {
  const tenant = tenantRoleFor(schema);
  return [
    `create role ${login} login${password === undefined ? '' : ` password '${password.replace(/'/g, "''")}'`} nosuperuser nocreatedb nocreaterole nobypassrls`,
    `create schema if not exists ${schema} authorization ${login}`,
    `do $$ begin
       create role ${tenant} nologin nosuperuser nobypassrls;
     exception when duplicate_object or unique_violation then null;
     end $$`,
    `grant ${tenant} to ${login}`,
  ];
}

/** A statement one login tried on another service's schema, and what PostgreSQL answered. */
export interface CrossSchemaAttempt {
  sql: string;
  /** The SQLSTATE of the refusal, or `allowed`. */
  outcome: string;
  /** Refused for want of privilege (`42501`); the shared tenant role may also not exist at all (`22023`, `42704`). */
  refused: boolean;
}

/**
 * Tries, as a service's login (`asLogin` runs one statement as it), to read and write every table of each of
 * `otherSchemas` and to switch to their tenant roles or the shared one of old. Statements that write change nothing
 * even if they were allowed (`where false`). Returns every attempt; a login kept to its own schema has each refused.
 * `admin` (a superuser) lists the tables.
 */
export async function crossSchemaAttempts(
  admin: Queryable,
  asLogin: (sql: string) => Promise<unknown>,
  otherSchemas: readonly string[],
): Promise<CrossSchemaAttempt[]> {
  const { rows: tables } = await admin.query<{ schema: string; table: string; column: string }>(
    `select c.table_schema as schema, c.table_name as table, c.column_name as column
       from information_schema.columns c
       join information_schema.tables t using (table_schema, table_name)
      where c.table_schema = any($1::text[]) and t.table_type = 'BASE TABLE' and c.ordinal_position = 1
      order by 1, 2`,
    [otherSchemas],
  );
  if (tables.length === 0) throw new Error(`No table in ${otherSchemas.join(', ')}: nothing was tried`);
  const statements = tables.flatMap(({ schema, table, column }) => {
    const name = `${schema}."${table}"`;
    return [
      `select * from ${name} limit 1`,
      `insert into ${name} select * from ${name} where false`,
      `update ${name} set "${column}" = "${column}" where false`,
      `delete from ${name} where false`,
    ];
  });
  for (const schema of otherSchemas) {
    const role = tenantRoleFor(schema);
    statements.push(`set role ${role}`, `select set_config('role', '${role}', false)`, `grant ${role} to current_user`);
  }
  // The role every schema once shared: a login still its member would reach every schema not yet upgraded.
  const shared = `set role ${SHARED_TENANT_ROLE}`;
  statements.push(shared);
  const attempts: CrossSchemaAttempt[] = [];
  for (const sql of statements) {
    let outcome = 'allowed';
    try {
      await asLogin(sql);
    } catch (error) {
      outcome = String((error as { code?: unknown }).code ?? (error as Error).message);
    }
    // A switch that went through must not colour the next attempts.
    if (outcome === 'allowed' && /role/.test(sql)) await asLogin('reset role').catch(() => undefined);
    attempts.push({
      sql,
      outcome,
      refused: outcome === '42501' || (sql === shared && ['22023', '42704'].includes(outcome)),
    });
  }
  return attempts;
}
