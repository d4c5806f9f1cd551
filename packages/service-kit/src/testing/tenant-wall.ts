import type { Queryable } from '../database';

/**
 * Tables of `schema` that hold a company's rows (a `company_id` or `incident_id` column, or the company table
 * itself) without the tenant wall (row-level security enabled and a `tenant_wall` policy): a migration that added a
 * table and forgot its policy. `exempt`: tables that hold such a column but no company's data, each with its reason
 * in the calling test.
 */
export async function tablesOutsideTenantWall(
  db: Queryable,
  schema: string,
  exempt: readonly string[] = [],
): Promise<string[]> {
  const { rows } = await db.query<{ table: string }>(
    `select c.relname as table
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind = 'r'
        and (c.relname = 'company' or exists (
              select 1 from pg_attribute a
               where a.attrelid = c.oid and not a.attisdropped and a.attname in ('company_id', 'incident_id')))
        and not (c.relrowsecurity and exists (
              select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'tenant_wall'))
      order by 1`,
    [schema],
  );
  return rows.map((row) => row.table).filter((table) => !exempt.includes(table));
}
