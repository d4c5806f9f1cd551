import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database } from './database';
import { assertSchemaName } from './migrate';

/**
 * The second wall between companies (docs/security.md, "Tenant isolation"). The first is every query's own
 * `company_id = $1`; this one holds when a query forgets it. A request whose token was verified runs
 * `asTenant(companyId, …)`; every statement a service's database (serviceDatabase) runs inside it, alone or in a
 * transaction, runs in a transaction that has switched to the tenant role of the service's schema (tenantRoleFor) —
 * no superuser, no BYPASSRLS, owner of nothing, so row-level security applies — with the company id in the
 * `whistle.company_id` setting, which every tenant table's policy compares with its rows (see tenantWallSql). Both
 * last until COMMIT or ROLLBACK, so a pooled connection never carries them to the next caller. Outside a scope
 * (sign-in, onboarding, public pages, consumers, schedulers) statements run as the service's own role, which owns
 * the tables and is not held by the policies.
 *
 * One tenant role per schema, granted only to that service's login: another service's login can neither read the
 * schema nor switch to its tenant role (docs/operations.md, "Database roles").
 */
export const TENANT_ROLE_PREFIX = 'whistle_tenant_';

/** The role every service shared before each schema had its own; the upgrade migration takes its rights away. */
export const SHARED_TENANT_ROLE = 'whistle_tenant';

/** Where the policies read the company id; a custom setting (`prefix.name`) lives only in the session or transaction. */
export const TENANT_SETTING = 'whistle.company_id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The company of a tenant scope, and the tenant role of the service whose database runs its statements. */
interface TenantScope {
  companyId: string;
  role?: string;
}

const scope = new AsyncLocalStorage<TenantScope>();

/** The tenant role of `schema`: `whistle_tenant_<schema>`, a cluster-wide PostgreSQL role. */
export function tenantRoleFor(schema: string): string {
  assertSchemaName(schema);
  const role = `${TENANT_ROLE_PREFIX}${schema}`;
  // PostgreSQL cuts identifiers at 63 bytes: two long schema names would share a role.
  if (role.length > 63) throw new Error(`Schema name ${schema} is too long for a tenant role (${role})`);
  return role;
}

/** Runs `work` (and everything it awaits) as the tenant `companyId`: see TENANT_ROLE_PREFIX. */
export function asTenant<T>(companyId: string, work: () => T): T {
  // Checked because it is written into SQL text (tenantTransactionStart): a token's claim is not trusted blindly.
  if (!UUID.test(companyId)) throw new Error('asTenant: a company id is a UUID');
  return scope.run({ companyId: companyId.toLowerCase() }, work);
}

/** The company whose scope the caller runs in, if any. */
export function currentTenant(): string | undefined {
  return scope.getStore()?.companyId;
}

/**
 * The statement that makes the transaction just begun the tenant's, or undefined outside a tenant scope: role
 * and company id, both local to it. One statement of constant shape (the id checked as a UUID by asTenant, the
 * role built from a checked schema name), so it can travel with BEGIN in one round trip. A tenant scope reached
 * through a database that is no service's (serviceDatabase) fails: there is no role every schema shares.
 */
export function tenantTransactionStart(): string | undefined {
  const tenant = scope.getStore();
  if (tenant === undefined) return undefined;
  if (tenant.role === undefined)
    throw new Error('A tenant scope reached a database without a tenant role: use serviceDatabase(db, schema)');
  return tenantStatement(tenant.role, tenant.companyId);
}

/** `SELECT set_config(…)` of the role and the company id, local to the transaction (load/bench seeds use it too). */
export function tenantStatement(role: string, companyId: string): string {
  if (!UUID.test(companyId)) throw new Error('A company id is a UUID');
  if (!role.startsWith(TENANT_ROLE_PREFIX)) throw new Error(`Not a tenant role: ${role}`);
  tenantRoleFor(role.slice(TENANT_ROLE_PREFIX.length));
  return `SELECT set_config('role', '${role}', true), set_config('${TENANT_SETTING}', '${companyId}', true)`;
}

/**
 * `db` as the service owning `schema` uses it: statements of a tenant scope run as the schema's tenant role. The
 * standalone platform hands one database to every service; each service wraps it with its own schema.
 */
export function serviceDatabase(db: Database, schema: string): Database {
  const role = tenantRoleFor(schema);
  const asService = <T>(work: () => Promise<T>): Promise<T> => {
    const tenant = scope.getStore();
    return tenant === undefined || tenant.role === role ? work() : scope.run({ ...tenant, role }, work);
  };
  return {
    kind: db.kind,
    query: (sql, params, options) => asService(() => db.query(sql, params, options)),
    transaction: (work) => asService(() => db.transaction(work)),
    listen: (channel, listener) => db.listen(channel, listener),
    close: () => db.close(),
  };
}

/** A table of a company's data: its company id column, or the parent row that carries it. */
export type TenantTable =
  | { table: string; companyColumn: string }
  | { table: string; parent: { table: string; foreignKey: string; key?: string } };

/**
 * SQL that makes sure the schema's tenant role exists and that the migrating role (the service's login) may switch
 * to it. Where the login may not create roles or grant them (docs/operations.md: service logins have no
 * CREATEROLE), an administrator has done both beforehand, and a migration that finds them missing stops with a
 * message saying what to run. Roles are the PostgreSQL cluster's, so several databases (parallel test runs,
 * environments) may race to create one: the loser's duplicate is ignored.
 */
export function tenantRoleSql(schema: string): string {
  const role = tenantRoleFor(schema);
  return `
    do $$ begin
      if not exists (select from pg_roles where rolname = '${role}') then
        begin
          create role ${role} nologin nosuperuser nobypassrls;
        exception
          when duplicate_object or unique_violation then null;
          when insufficient_privilege then
            raise exception 'The role ${role} does not exist and % may not create it', current_user
              using hint = 'An administrator runs: CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOBYPASSRLS; GRANT ${role} TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
        end;
      end if;
      if not pg_has_role(current_user, '${role}', 'MEMBER') then
        begin
          execute format('grant ${role} to %I', current_user);
        exception when insufficient_privilege then
          raise exception 'The role ${role} is not granted to %', current_user
            using hint = 'An administrator runs: GRANT ${role} TO ' || quote_ident(current_user) || '; (docs/operations.md, "Database roles")';
        end;
      end if;
    end $$;`;
}

/** The tenant role's rights on the schema: every table and sequence, now and later, as the service uses them. */
function tenantGrantsSql(schema: string): string {
  const role = tenantRoleFor(schema);
  return `
    grant usage on schema ${schema} to ${role};
    grant select, insert, update, delete on all tables in schema ${schema} to ${role};
    grant usage, select on all sequences in schema ${schema} to ${role};
    alter default privileges in schema ${schema} grant select, insert, update, delete on tables to ${role};
    alter default privileges in schema ${schema} grant usage, select on sequences to ${role};`;
}

/**
 * The migration that raises the wall on `schema`: the schema's tenant role (tenantRoleSql) may use the schema's
 * tables as the service does, and a policy on each of `tables` shows and accepts only the rows of the company in
 * TENANT_SETTING (none when it is unset). Tables not listed (outbox, revocations, rate-limit counters) hold no
 * company's data and stay open to the role. Row-level security is enabled, not forced: the owner — the service
 * itself outside a tenant scope — is not held. A table added later needs its own policy in its migration; the
 * schema's wall test finds one that lacks it.
 *
 * A migration file holds the text this produced when it was written, never a call: a change here would otherwise
 * rewrite what every database already ran (docs/architecture.md, "The database's state in files"). A new
 * migration's wall is its printed text: `node -p "require('@whistle/service-kit').tenantPoliciesSql('incident',
 * [{ table: 'x', companyColumn: 'company_id' }])"` after a build, pasted into the file.
 */
export function tenantWallSql(schema: string, tables: readonly TenantTable[]): string {
  return `${tenantRoleSql(schema)}${tenantGrantsSql(schema)}${tenantPoliciesSql(schema, tables)}`;
}

/**
 * The wall on tables added to a schema already walled: their policies only. The role's rights on them come from the
 * schema's default privileges; granting every table again would undo the column grants a later migration narrowed.
 */
export function tenantPoliciesSql(schema: string, tables: readonly TenantTable[]): string {
  const role = tenantRoleFor(schema);
  const company = `nullif(current_setting('${TENANT_SETTING}', true), '')::uuid`;
  const policies = tables.map((entry) => {
    const condition =
      'companyColumn' in entry
        ? `${entry.companyColumn} = ${company}`
        : // The parent's own policy filters the subquery: only the tenant's parent rows can match.
          `exists (select 1 from ${schema}.${entry.parent.table} parent where parent.${entry.parent.key ?? 'id'} = ${entry.parent.foreignKey})`;
    return `
      alter table ${schema}.${entry.table} enable row level security;
      create policy tenant_wall on ${schema}.${entry.table} to ${role} using (${condition}) with check (${condition});`;
  });
  return `
    ${policies.join('\n')}
  `;
}

/**
 * The migration that moves a schema walled before each schema had its own role (all shared SHARED_TENANT_ROLE)
 * onto its own: creates or checks the schema's role, grants it what the shared one had, points every `tenant_wall`
 * policy at it, and takes every right on the schema from the shared role. On a schema walled with its own role
 * from the start it changes nothing. The shared role itself is the cluster's: an administrator drops it once every
 * service of every database using it has moved (docs/operations.md).
 */
export function tenantRolePerSchemaSql(schema: string): string {
  const role = tenantRoleFor(schema);
  return `${tenantRoleSql(schema)}${tenantGrantsSql(schema)}
    do $$ declare walled record; begin
      for walled in select tablename from pg_policies where schemaname = '${schema}' and policyname = 'tenant_wall' loop
        execute format('alter policy tenant_wall on ${schema}.%I to ${role}', walled.tablename);
      end loop;
      if exists (select from pg_roles where rolname = '${SHARED_TENANT_ROLE}') then
        revoke all on all tables in schema ${schema} from ${SHARED_TENANT_ROLE};
        revoke all on all sequences in schema ${schema} from ${SHARED_TENANT_ROLE};
        revoke all on schema ${schema} from ${SHARED_TENANT_ROLE};
        alter default privileges in schema ${schema} revoke all on tables from ${SHARED_TENANT_ROLE};
        alter default privileges in schema ${schema} revoke all on sequences from ${SHARED_TENANT_ROLE};
      end if;
    end $$;
  `;
}
