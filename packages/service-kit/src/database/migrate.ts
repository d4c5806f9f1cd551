import { createHash } from 'node:crypto';
import type { Database, Migration, MigrationStream, Queryable, RepeatableDefinition } from './database';

/** Schema names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `Invalid schema name ${JSON.stringify(schema)}: expected a lower-case SQL identifier (${SCHEMA_NAME.source})`,
    );
  }
}

/** What migrate records of a migration or a repeatable definition: the SHA-256 (hex) of its exact text. */
export function sqlChecksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
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
  /** Ids of the migrations applied by this call, in order. */
  applied: string[];
  /** Names of the repeatable definitions applied by this call (new, or their text changed), in order. */
  repeatables: string[];
}

function byId(a: Migration, b: Migration): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A migration or a repeatable definition of one of the streams given to migrate, and the checksum of its text. */
export interface Known<T> {
  item: T;
  stream: string;
  checksum: string;
}

/** Each stream's items by name, streams in the order given, each name once in the schema. */
function byName<T extends { sql: string }>(
  schema: string,
  what: string,
  streams: readonly MigrationStream[],
  itemsOf: (stream: MigrationStream) => readonly T[],
  nameOf: (item: T) => string,
): Map<string, Known<T>> {
  const all = new Map<string, Known<T>>();
  for (const stream of streams) {
    for (const item of itemsOf(stream)) {
      const name = nameOf(item);
      if (!name.trim()) throw new Error(`A ${what} of schema ${schema} (stream ${stream.name}) is empty`);
      const other = all.get(name);
      if (other)
        throw new Error(`Duplicate ${what} ${name} in schema ${schema} (streams ${other.stream}, ${stream.name})`);
      all.set(name, { item, stream: stream.name, checksum: sqlChecksum(item.sql) });
    }
  }
  return all;
}

/** The migrations (in the order they apply) and repeatable definitions of a schema's streams, with checksums. */
export function knownDefinitions(
  schema: string,
  streams: readonly MigrationStream[],
): { migrations: Map<string, Known<Migration>>; repeatables: Map<string, Known<RepeatableDefinition>> } {
  assertSchemaName(schema);
  return {
    migrations: byName(
      schema,
      'migration id',
      streams,
      (stream) => [...stream.migrations].sort(byId),
      (migration) => migration.id,
    ),
    repeatables: byName<RepeatableDefinition>(
      schema,
      'repeatable definition',
      streams,
      (stream) => stream.repeatables ?? [],
      (repeatable) => repeatable.name,
    ),
  };
}

/**
 * The bookkeeping tables: `schema_migration` (one row per applied migration and the checksum of its text) and
 * `schema_repeatable` (the checksum each repeatable definition was last applied with). A table made before checksums
 * were recorded gets the column; its rows are filled in by `adoptChecksums`.
 */
async function prepareBookkeeping(tx: Queryable, schema: string): Promise<void> {
  // Created only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the schema is
  // there, and a service's login need not have it when an administrator created its schema for it.
  const exists = await tx.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (exists.rowCount === 0) await tx.query(`CREATE SCHEMA ${schema}`);
  await tx.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.schema_migration (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), checksum text)`,
  );
  // Looked up first: ALTER TABLE … ADD COLUMN IF NOT EXISTS would lock the table on every start.
  const column = await tx.query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'schema_migration' AND column_name = 'checksum'`,
    [schema],
  );
  if (column.rowCount === 0) await tx.query(`ALTER TABLE ${schema}.schema_migration ADD COLUMN checksum text`);
  await tx.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.schema_repeatable (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
}

/**
 * Rows recorded before checksums were (no checksum) take their migration's checksum now: the migration's text is
 * what was applied, since it never changes. Then every recorded checksum must match its migration's text.
 */
async function adoptAndVerifyChecksums(
  tx: Queryable,
  schema: string,
  migrations: Map<string, Known<Migration>>,
): Promise<Set<string>> {
  const { rows } = await tx.query<{ id: string; checksum: string | null }>(
    `SELECT id, checksum FROM ${schema}.schema_migration ORDER BY id`,
  );
  const edited: string[] = [];
  for (const row of rows) {
    const migration = migrations.get(row.id);
    // A row of a stream not given to this call (a test migrating part of a schema): nothing to compare it with.
    if (!migration) continue;
    if (row.checksum === null) {
      await tx.query(`UPDATE ${schema}.schema_migration SET checksum = $2 WHERE id = $1`, [row.id, migration.checksum]);
    } else if (row.checksum !== migration.checksum) {
      edited.push(`${row.id} (stream ${migration.stream}: applied as ${row.checksum}, now ${migration.checksum})`);
    }
  }
  if (edited.length > 0) {
    throw new Error(
      `Schema ${schema}: applied migrations were edited since: ${edited.join('; ')}. An applied migration never ` +
        'changes (its text is what the database ran): restore its text, and put the change in a new migration or, ' +
        'for a function, trigger or view, in its repeatable definition (docs/architecture.md, "The database\'s ' +
        'state in files").',
    );
  }
  return new Set(rows.map((row) => row.id));
}

/**
 * Brings `schema` up to date: creates it and its bookkeeping tables if missing, checks that no applied migration was
 * edited (refusing to go on if one was), applies each pending migration — stream after stream, each stream in id
 * order — in its own transaction together with its bookkeeping row and checksum, then applies each repeatable
 * definition whose text is new or changed. Every step holds a per-schema advisory lock and re-checks what is
 * applied, so several processes starting at once apply each migration (and each definition's text) exactly once.
 */
export async function migrate(db: Database, schema: string, ...streams: MigrationStream[]): Promise<MigrateResult> {
  const { migrations, repeatables } = knownDefinitions(schema, streams);

  // CREATE SCHEMA IF NOT EXISTS is not safe against a concurrent creator, hence the lock here too.
  const { alreadyApplied, definedAs } = await db.transaction(async (tx) => {
    await lock(tx, schema);
    await prepareBookkeeping(tx, schema);
    const { rows } = await tx.query<{ name: string; checksum: string }>(
      `SELECT name, checksum FROM ${schema}.schema_repeatable`,
    );
    return {
      alreadyApplied: await adoptAndVerifyChecksums(tx, schema, migrations),
      definedAs: new Map(rows.map((row) => [row.name, row.checksum])),
    };
  });

  const applied: string[] = [];
  for (const [id, { item: migration, checksum }] of migrations) {
    if (alreadyApplied.has(id)) continue;
    const ran = await db.transaction(async (tx) => {
      await lock(tx, schema);
      // Another process may have applied it while this one waited for the lock.
      const done = await tx.query(`SELECT 1 FROM ${schema}.schema_migration WHERE id = $1`, [id]);
      if (done.rowCount > 0) return false;
      try {
        await tx.query(migration.sql);
      } catch (error) {
        throw new Error(`Migration ${schema}/${id} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query(`INSERT INTO ${schema}.schema_migration (id, checksum) VALUES ($1, $2)`, [id, checksum]);
      return true;
    });
    if (ran) applied.push(id);
  }

  const repeated: string[] = [];
  for (const [name, { item: repeatable, checksum }] of repeatables) {
    if (definedAs.get(name) === checksum) continue;
    const ran = await db.transaction(async (tx) => {
      await lock(tx, schema);
      const current = await tx.query<{ checksum: string }>(
        `SELECT checksum FROM ${schema}.schema_repeatable WHERE name = $1`,
        [name],
      );
      if (current.rows[0]?.checksum === checksum) return false;
      try {
        await tx.query(repeatable.sql);
      } catch (error) {
        throw new Error(`Repeatable definition ${schema}/${name} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      await tx.query(
        `INSERT INTO ${schema}.schema_repeatable (name, checksum) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now()`,
        [name, checksum],
      );
      return true;
    });
    if (ran) repeated.push(name);
  }
  return { applied, repeatables: repeated };
}
