import {
  migrate,
  type Database,
  type MigrateResult,
  type Migration,
  type MigrationStream,
  type Queryable,
} from '../database';
import { createTestDependencies, type TestStack } from './dependencies';

/**
 * A service schema's migrations exactly as the code before migration files ran them (a test fixture per service):
 * every stream's migrations, sorted by id together.
 */
export interface MigrationsBeforeFiles {
  /** The commit whose code made them. */
  madeBy: string;
  schema: string;
  migrations: Migration[];
}

/**
 * Migrates as `migrate` did before checksums and repeatable definitions (up to the commit of MigrationsBeforeFiles):
 * a `schema_migration` of ids and times only, every migration in id order. What an existing database looks like.
 */
export async function migrateAsBeforeFiles(db: Database, { schema, migrations }: MigrationsBeforeFiles): Promise<void> {
  await db.query(`CREATE SCHEMA ${schema}`);
  await db.query(
    `CREATE TABLE ${schema}.schema_migration (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  for (const migration of [...migrations].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    await db.transaction(async (tx) => {
      await tx.query(migration.sql);
      await tx.query(`INSERT INTO ${schema}.schema_migration (id) VALUES ($1)`, [migration.id]);
    });
  }
}

/**
 * The text of a migration as its file holds it: without the blank first and last lines and the indentation all its
 * lines shared (it was a template literal in TypeScript), trailing spaces or repeated blank lines. Only whitespace
 * between SQL tokens, or in a function body that its repeatable definition replaces, differs.
 */
export function migrationFileText(sql: string): string {
  const lines = sql.split('\n').map((line) => line.trimEnd());
  while (lines[0] === '') lines.shift();
  while (lines.at(-1) === '') lines.pop();
  const indent = Math.min(...lines.filter((line) => line !== '').map((line) => line.length - line.trimStart().length));
  return `${lines
    .map((line) => line.slice(indent))
    .filter((line, index, all) => line !== '' || all[index - 1] !== '')
    .join('\n')}\n`;
}

/** True when `file` is `before`'s text (migrationFileText), after a header of comment lines saying why. */
export function migrationFileHolds(file: string, before: string): boolean {
  const text = migrationFileText(before);
  if (!file.endsWith(text)) return false;
  return file
    .slice(0, file.length - text.length)
    .split('\n')
    .every((line) => line === '' || line.startsWith('--'));
}

/** A schema's definition as the catalogue holds it, each part a sorted list of lines: what two databases compare. */
export interface SchemaCatalog {
  relations: string[];
  columns: string[];
  constraints: string[];
  indexes: string[];
  functions: string[];
  triggers: string[];
  policies: string[];
  views: string[];
  privileges: string[];
}

const catalogQueries: Record<keyof SchemaCatalog, string> = {
  relations: `select c.relname || ' ' || c.relkind::text || ' rls=' || c.relrowsecurity || ' forced=' || c.relforcerowsecurity
                || ' acl=' || coalesce(c.relacl::text, '') as line
                from pg_class c where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
  columns: `select table_name || '.' || column_name || ' #' || ordinal_position || ' ' || data_type || ' null='
              || is_nullable || ' default=' || coalesce(column_default, '') || ' generated='
              || coalesce(generation_expression, '') as line
              from information_schema.columns where table_schema = $1`,
  constraints: `select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as line
                  from pg_constraint where connamespace = $1::regnamespace`,
  indexes: `select indexdef as line from pg_indexes where schemaname = $1`,
  functions: `select pg_get_functiondef(p.oid) || ' acl=' || coalesce(p.proacl::text, '') as line
                from pg_proc p where p.pronamespace = $1::regnamespace`,
  triggers: `select pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text as line
               from pg_trigger t join pg_class c on c.oid = t.tgrelid
              where c.relnamespace = $1::regnamespace and not t.tgisinternal`,
  policies: `select tablename || ' ' || policyname || ' ' || permissive || ' ' || roles::text || ' ' || cmd || ' using='
               || coalesce(qual, '') || ' check=' || coalesce(with_check, '') as line
               from pg_policies where schemaname = $1`,
  views: `select viewname || ' ' || definition as line from pg_views where schemaname = $1`,
  privileges: `select 'schema ' || coalesce(nspacl::text, '') as line from pg_namespace where nspname = $1
               union all
               select 'default ' || defaclobjtype::text || ' ' || defaclacl::text from pg_default_acl
                where defaclnamespace = $1::regnamespace
               union all
               select 'column ' || attrelid::regclass::text || '.' || attname || ' ' || attacl::text from pg_attribute
                where attacl is not null and attrelid in (select oid from pg_class where relnamespace = $1::regnamespace)`,
};

export async function schemaCatalog(db: Queryable, schema: string): Promise<SchemaCatalog> {
  const catalog = {} as SchemaCatalog;
  for (const [part, sql] of Object.entries(catalogQueries) as [keyof SchemaCatalog, string][]) {
    const { rows } = await db.query<{ line: string }>(sql, [schema]);
    catalog[part] = rows.map((row) => row.line).sort();
  }
  return catalog;
}

/**
 * `catalog` without what only differs by layout, or by the bookkeeping of migrate itself: function definitions with
 * their whitespace collapsed (repeatable definitions are the migrations' functions, re-indented), and nothing of
 * `schema_migration` and `schema_repeatable`.
 */
export function catalogBesideBookkeeping(catalog: SchemaCatalog): SchemaCatalog {
  const bookkeeping = /\bschema_(migration|repeatable)\b/;
  return Object.fromEntries(
    Object.entries(catalog).map(([part, lines]: [string, string[]]) => [
      part,
      lines
        .filter((line) => !bookkeeping.test(line))
        .map((line) => (part === 'functions' ? line.replace(/\s+/g, ' ') : line))
        .sort(),
    ]),
  ) as unknown as SchemaCatalog;
}

/** What became of a database made before migration files (MigrationsBeforeFiles) once `migrate` ran on it. */
export interface SchemaUpgrade {
  /** What `migrate` did to it with the migrations the fixture holds (and every definition). */
  result: MigrateResult;
  /** What `migrate` did then with the migrations added after the fixture. */
  later: MigrateResult;
  /** Its catalogue as the code before files left it. */
  before: SchemaCatalog;
  /** Its catalogue once migrated with the fixture's migrations only. */
  asBefore: SchemaCatalog;
  /** Its catalogue once migrated. */
  upgraded: SchemaCatalog;
  /** The catalogue of a database `migrate` made from nothing. */
  fresh: SchemaCatalog;
  /** Its `schema_migration` rows once migrated: id and checksum. */
  recorded: { id: string; checksum: string | null }[];
}

/**
 * Makes a database as the code before migration files did (`before`, its fixture), migrates it with `streams` as the
 * service does (the kit's messaging stream first): first with the migrations the fixture holds, which must change
 * nothing but the bookkeeping, then with those added since; and makes a second database from nothing with the same
 * streams.
 */
export async function upgradeSchemaMadeBeforeFiles(
  stack: TestStack,
  before: MigrationsBeforeFiles,
  streams: readonly MigrationStream[],
): Promise<SchemaUpgrade> {
  const { schema } = before;
  const known = new Set(before.migrations.map((migration) => migration.id));
  const asBeforeStreams = streams.map((stream) => ({
    ...stream,
    migrations: stream.migrations.filter((migration) => known.has(migration.id)),
  }));
  const old = await createTestDependencies(stack);
  const fresh = await createTestDependencies(stack);
  try {
    await migrateAsBeforeFiles(old.deps.db, before);
    const made = await schemaCatalog(old.deps.db, schema);
    const result = await migrate(old.deps.db, schema, ...asBeforeStreams);
    const asBefore = await schemaCatalog(old.deps.db, schema);
    const later = await migrate(old.deps.db, schema, ...streams);
    await migrate(fresh.deps.db, schema, ...streams);
    const { rows: recorded } = await old.deps.db.query<{ id: string; checksum: string | null }>(
      `select id, checksum from ${schema}.schema_migration order by id`,
    );
    return {
      result,
      later,
      before: made,
      asBefore,
      upgraded: await schemaCatalog(old.deps.db, schema),
      fresh: await schemaCatalog(fresh.deps.db, schema),
      recorded,
    };
  } finally {
    await old.dispose();
    await fresh.dispose();
  }
}

/**
 * `stream` as it was before migration `id` (a database made by older code): its earlier migrations, and none of its
 * repeatable definitions, whose current text may use what a later migration adds.
 */
export function streamBefore(stream: MigrationStream, id: string): MigrationStream {
  return { name: stream.name, migrations: stream.migrations.filter((migration) => migration.id < id) };
}
