import { createHash } from 'node:crypto';
import type { Database, Migration, Queryable } from './database';

/** Schema names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `Invalid schema name ${JSON.stringify(schema)}: expected a lower-case SQL identifier (${SCHEMA_NAME.source})`,
    );
  }
}

/**
 * The advisory lock key for a schema's migrations: 64 bits of a SHA-256, so every schema has its own
 * lock and two services migrating different schemas of one database never wait on each other.
 */
function lockKey(schema: string): string {
  return createHash('sha256').update(`whistle.migrate:${schema}`).digest().readBigInt64BE(0).toString();
}

async function lock(tx: Queryable, schema: string): Promise<void> {
  // Held until the transaction ends; on PGlite (a single connection) it is granted at once, which is all it needs.
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey(schema)]);
}

export interface MigrateResult {
  /** Ids applied by this call, in order. */
  applied: string[];
}

/**
 * Brings `schema` up to date: creates it and `${schema}.schema_migration` if missing, then applies each
 * pending migration in id order, each in its own transaction together with its bookkeeping row.
 * Every step holds a per-schema advisory lock and re-checks what is applied, so several processes
 * starting at once apply each migration exactly once.
 */
export async function migrate(db: Database, schema: string, migrations: readonly Migration[]): Promise<MigrateResult> {
  assertSchemaName(schema);
  const ordered = [...migrations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  ordered.forEach((migration, index) => {
    if (!migration.id.trim()) throw new Error(`Migration of schema ${schema} has an empty id`);
    if (index > 0 && ordered[index - 1]!.id === migration.id)
      throw new Error(`Duplicate migration id ${migration.id} in schema ${schema}`);
  });

  // CREATE SCHEMA IF NOT EXISTS is not safe against a concurrent creator, hence the lock here too.
  const alreadyApplied = await db.transaction(async (tx) => {
    await lock(tx, schema);
    // Created only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the schema is
    // there, and a service's login need not have it when an administrator created its schema for it.
    const exists = await tx.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rowCount === 0) await tx.query(`CREATE SCHEMA ${schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migration (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await tx.query<{ id: string }>(`SELECT id FROM ${schema}.schema_migration`);
    return new Set(rows.map((row) => row.id));
  });

  const applied: string[] = [];
  for (const migration of ordered) {
    if (alreadyApplied.has(migration.id)) continue;
    const ran = await db.transaction(async (tx) => {
      await lock(tx, schema);
      // Another process may have applied it while this one waited for the lock.
      const done = await tx.query(`SELECT 1 FROM ${schema}.schema_migration WHERE id = $1`, [migration.id]);
      if (done.rowCount > 0) return false;
      try {
        await tx.query(migration.sql);
      } catch (error) {
        throw new Error(`Migration ${schema}/${migration.id} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query(`INSERT INTO ${schema}.schema_migration (id) VALUES ($1)`, [migration.id]);
      return true;
    });
    if (ran) applied.push(migration.id);
  }
  return { applied };
}
