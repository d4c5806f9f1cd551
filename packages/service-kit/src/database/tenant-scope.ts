import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The second wall between companies (docs/security.md, "Tenant isolation"). The first is every query's own
 * `company_id = $1`; this one holds when a query forgets it. A request whose token was verified runs
 * `asTenant(companyId, …)`; every statement the database adapters run inside it, alone or in a transaction, runs
 * in a transaction that has switched to TENANT_ROLE — no superuser, no BYPASSRLS, owner of nothing, so row-level
 * security applies — with the company id in the `whistle.company_id` setting, which every tenant table's policy
 * compares with its rows (see tenantWallSql). Both last until COMMIT or ROLLBACK, so a pooled connection never
 * carries them to the next caller. Outside a scope (sign-in, onboarding, public pages, consumers, schedulers)
 * statements run as the service's own role, which owns the tables and is not held by the policies.
 */
export const TENANT_ROLE = 'whistle_tenant';

/** Where the policies read the company id; a custom setting (`prefix.name`) lives only in the session or transaction. */
export const TENANT_SETTING = 'whistle.company_id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const scope = new AsyncLocalStorage<string>();

/** Runs `work` (and everything it awaits) as the tenant `companyId`: see TENANT_ROLE. */
export function asTenant<T>(companyId: string, work: () => T): T {
  // Checked because it is written into SQL text (tenantTransactionStart): a token's claim is not trusted blindly.
  if (!UUID.test(companyId)) throw new Error('asTenant: a company id is a UUID');
  return scope.run(companyId.toLowerCase(), work);
}

/** The company whose scope the caller runs in, if any. */
export function currentTenant(): string | undefined {
  return scope.getStore();
}

/**
 * The statement that makes the transaction just begun the tenant's: role and company id, both local to it.
 * One statement of constant shape, the id checked as a UUID by asTenant, so it can travel with BEGIN in one round trip.
 */
export function tenantTransactionStart(companyId: string): string {
  return `SELECT set_config('role', '${TENANT_ROLE}', true), set_config('${TENANT_SETTING}', '${companyId}', true)`;
}

/** A table of a company's data: its company id column, or the parent row that carries it. */
export type TenantTable =
  | { table: string; companyColumn: string }
  | { table: string; parent: { table: string; foreignKey: string; key?: string } };

/**
 * The migration that raises the wall on `schema`: creates TENANT_ROLE once per PostgreSQL cluster (the migrating
 * role needs CREATEROLE the first time, or an administrator creates it and grants it to the service's role: see
 * docs/operations.md), lets the role use the schema's tables as the service does, and puts a policy on each of
 * `tables` that shows and accepts only the rows of the company in TENANT_SETTING (none when it is unset). Tables not
 * listed (outbox, revocations, rate-limit counters) hold no company's data and stay open to the role.
 * Row-level security is enabled, not forced: the owner — the service itself outside a tenant scope — is not held.
 * A table added later needs its own policy in its migration; the schema's wall test finds one that lacks it.
 */
export function tenantWallSql(schema: string, tables: readonly TenantTable[]): string {
  const company = `nullif(current_setting('${TENANT_SETTING}', true), '')::uuid`;
  const policies = tables.map((entry) => {
    const condition =
      'companyColumn' in entry
        ? `${entry.companyColumn} = ${company}`
        : // The parent's own policy filters the subquery: only the tenant's parent rows can match.
          `exists (select 1 from ${schema}.${entry.parent.table} parent where parent.${entry.parent.key ?? 'id'} = ${entry.parent.foreignKey})`;
    return `
      alter table ${schema}.${entry.table} enable row level security;
      create policy tenant_wall on ${schema}.${entry.table} to ${TENANT_ROLE} using (${condition}) with check (${condition});`;
  });
  return `
    do $$ begin
      create role ${TENANT_ROLE} nologin nosuperuser nobypassrls;
    exception when duplicate_object or unique_violation then null;
    end $$;
    do $$ begin
      if not pg_has_role(current_user, '${TENANT_ROLE}', 'MEMBER') then
        execute format('grant ${TENANT_ROLE} to %I', current_user);
      end if;
    end $$;
    grant usage on schema ${schema} to ${TENANT_ROLE};
    grant select, insert, update, delete on all tables in schema ${schema} to ${TENANT_ROLE};
    grant usage, select on all sequences in schema ${schema} to ${TENANT_ROLE};
    alter default privileges in schema ${schema} grant select, insert, update, delete on tables to ${TENANT_ROLE};
    alter default privileges in schema ${schema} grant usage, select on sequences to ${TENANT_ROLE};
    ${policies.join('\n')}
  `;
}
