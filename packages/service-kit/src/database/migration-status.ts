import type { MigrationStream, Queryable } from './database';
import { knownDefinitions } from './migrate';

/**
 * `applied` as its text says; `pending` not yet applied; `edited` applied, but its text changed since (migrate refuses
 * to go on until it is restored).
 */
export type MigrationState = 'applied' | 'pending' | 'edited';

export interface MigrationStatus {
  stream: string;
  id: string;
  state: MigrationState;
  /** When it was applied (ISO 8601), null while pending. */
  appliedAt: string | null;
  /** SHA-256 (hex) of its text in this release. */
  checksum: string;
}

/** `current` as applied; `changed` its text differs from what was applied; `new` never applied. */
export type RepeatableState = 'current' | 'changed' | 'new';

export interface RepeatableStatus {
  stream: string;
  name: string;
  state: RepeatableState;
}

export interface SchemaStatus {
  schema: string;
  migrations: MigrationStatus[];
  repeatables: RepeatableStatus[];
  /**
   * Applied migrations no stream of this release knows: the database was migrated by a newer release (after a
   * rollback of the code, say). Their changes stay: a migration is never undone (docs/operations.md, "Upgrades").
   */
  unknown: { id: string; appliedAt: string }[];
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * What `migrate` would do to `schema`, and what it did: read only, it creates nothing and takes no lock, so it can
 * run beside the services (a schema not made yet has everything pending).
 */
export async function migrationStatus(
  db: Queryable,
  schema: string,
  ...streams: MigrationStream[]
): Promise<SchemaStatus> {
  const { migrations, repeatables } = knownDefinitions(schema, streams);
  const { rows: tables } = await db.query<{ migrations: boolean; repeatables: boolean }>(
    `SELECT to_regclass($1) IS NOT NULL AS migrations, to_regclass($2) IS NOT NULL AS repeatables`,
    [`${schema}.schema_migration`, `${schema}.schema_repeatable`],
  );
  const applied = tables[0]?.migrations
    ? (
        await db.query<{ id: string; applied_at: Date | string; checksum: string | null }>(
          `SELECT id, applied_at, checksum FROM ${schema}.schema_migration ORDER BY id`,
        )
      ).rows
    : [];
  const defined = tables[0]?.repeatables
    ? (await db.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${schema}.schema_repeatable`))
        .rows
    : [];
  const appliedById = new Map(applied.map((row) => [row.id, row]));
  const definedByName = new Map(defined.map((row) => [row.name, row.checksum]));
  return {
    schema,
    migrations: [...migrations].map(([id, known]) => {
      const row = appliedById.get(id);
      // A row from before checksums were recorded is adopted by the next migrate: its text is what ran.
      const state: MigrationState = !row
        ? 'pending'
        : row.checksum === null || row.checksum === known.checksum
          ? 'applied'
          : 'edited';
      return { stream: known.stream, id, state, appliedAt: row ? iso(row.applied_at) : null, checksum: known.checksum };
    }),
    repeatables: [...repeatables].map(([name, known]) => {
      const checksum = definedByName.get(name);
      const state: RepeatableState =
        checksum === undefined ? 'new' : checksum === known.checksum ? 'current' : 'changed';
      return { stream: known.stream, name, state };
    }),
    unknown: applied
      .filter((row) => !migrations.has(row.id))
      .map((row) => ({ id: row.id, appliedAt: iso(row.applied_at) })),
  };
}
