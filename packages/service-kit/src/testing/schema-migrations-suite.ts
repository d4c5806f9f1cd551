import { readFileSync } from 'node:fs';
import { migrate, sqlChecksum, type MigrationStream } from '../database';
import { messagingMigrations } from '../messaging/outbox';
import { createServiceLifecycle } from '../service-lifecycle';
import { createTestDependencies, testStacks, type TestDependencies } from './dependencies';
import {
  catalogBesideBookkeeping,
  migrationFileHolds,
  upgradeSchemaMadeBeforeFiles,
  type MigrationsBeforeFiles,
  type SchemaUpgrade,
} from './schema-upgrade';

export interface SchemaMigrationsSuite {
  /** The fixture: the JSON of MigrationsBeforeFiles, the migrations as the service ran them before files. */
  beforeFiles: string;
  /** The service's streams, as it gives them to its lifecycle (which migrates the kit's messaging tables first). */
  streams: readonly MigrationStream[];
  /**
   * A change to one of the schema's repeatable definitions, and a query whose one row and column `text` shows the
   * definition in force. Omitted for a schema without any.
   */
  changedDefinition?: { name: string; edit: (sql: string) => string; live: string; changed: RegExp };
}

/**
 * The tests every service schema passes (docs/architecture.md, "The database's state in files"): its migration files
 * hold what the service ran before them; a database made then upgrades to the schema a new one gets, running nothing
 * again; an edited migration stops the service; a changed definition is applied again once. On both stacks.
 */
export function describeSchemaMigrations({ beforeFiles, streams, changedDefinition }: SchemaMigrationsSuite): void {
  const before = JSON.parse(readFileSync(beforeFiles, 'utf8')) as MigrationsBeforeFiles;
  const { schema } = before;
  const all = [messagingMigrations(schema), ...streams];
  const now = new Map(all.flatMap((stream) => stream.migrations).map((migration) => [migration.id, migration.sql]));
  const own = streams.at(-1)!;
  const known = new Set(before.migrations.map((migration) => migration.id));
  /** The migrations added after the fixture was made, in the order they apply. */
  const added = all.flatMap((stream) => stream.migrations).filter((migration) => !known.has(migration.id));

  describe(`the ${schema} schema's migrations`, () => {
    test('when read from their files and streams, then they begin with the migrations the service ran before files, each with its text, and any added since are numbered after them', () => {
      const ids = [...now.keys()].sort();
      expect(ids.slice(0, before.migrations.length)).toEqual(before.migrations.map((migration) => migration.id));
      expect(ids.slice(before.migrations.length)).toEqual(added.map((migration) => migration.id).sort());
      const changed = before.migrations.filter(({ id, sql }) => {
        const text = now.get(id)!;
        return text !== sql && !migrationFileHolds(text, sql);
      });
      expect(changed.map((migration) => migration.id)).toEqual([]);
    });
  });

  describe.each(testStacks)(`a database of the ${schema} schema made before migration files, on %s`, (stack) => {
    let upgrade: SchemaUpgrade;
    beforeAll(async () => {
      upgrade = await upgradeSchemaMadeBeforeFiles(stack, before, all);
    });

    test('when it is migrated, then no migration runs again, only those added since, each takes its checksum, and every definition is applied once', () => {
      expect(upgrade.result).toEqual({
        applied: [],
        repeatables: all.flatMap((stream) => (stream.repeatables ?? []).map((repeatable) => repeatable.name)),
      });
      expect(upgrade.later).toEqual({ applied: added.map((migration) => migration.id), repeatables: [] });
      expect(upgrade.recorded).toEqual(
        [...before.migrations, ...added].map(({ id }) => ({ id, checksum: sqlChecksum(now.get(id)!) })),
      );
    });

    test('when it is migrated, then its schema is a new database’s, and before the migrations added since it differed only in its bookkeeping and its function bodies’ layout', () => {
      expect(upgrade.upgraded).toEqual(upgrade.fresh);
      expect(catalogBesideBookkeeping(upgrade.before)).toEqual(catalogBesideBookkeeping(upgrade.asBefore));
    });

    test('when made from nothing, then each of its functions and triggers has its current text in a file', () => {
      const defined = (kind: string) =>
        (own.repeatables ?? [])
          .filter((repeatable) => repeatable.name.startsWith(`${kind}/`))
          .map((repeatable) => repeatable.name.slice(kind.length + 1, -'.sql'.length))
          .sort();
      const named = (lines: string[], pattern: RegExp) => lines.map((line) => pattern.exec(line)![1]!).sort();
      expect(named(upgrade.fresh.functions, /FUNCTION \w+\.(\w+)\(/)).toEqual(defined('functions'));
      expect(named(upgrade.fresh.triggers, /^CREATE TRIGGER (\w+) /)).toEqual(defined('triggers'));
    });
  });

  describe.each(testStacks)(`the ${schema} service, on %s`, (stack) => {
    let test$: TestDependencies;
    beforeAll(async () => {
      test$ = await createTestDependencies(stack);
      await migrate(test$.deps.db, schema, ...all);
    });
    afterAll(() => test$?.dispose());

    test('when one of its applied migrations was edited, then it refuses to start, naming the migration', async () => {
      const first = own.migrations[0]!;
      const edited = { ...own, migrations: [{ ...first, sql: `${first.sql}-- edited\n` }, ...own.migrations.slice(1)] };
      const lifecycle = createServiceLifecycle({
        name: schema,
        schema,
        migrations: [...streams.slice(0, -1), edited],
        deps: test$.deps,
      });
      await expect(lifecycle.start()).rejects.toThrow(
        new RegExp(`Schema ${schema}: applied migrations were edited since: ${first.id} \\(stream ${own.name}: `),
      );
    });

    if (changedDefinition) {
      test('when a definition’s file changes, then it alone is applied again, once, and is in force', async () => {
        const { name, edit, live, changed } = changedDefinition;
        const repeatables = own.repeatables!.map((repeatable) =>
          repeatable.name === name ? { ...repeatable, sql: edit(repeatable.sql) } : repeatable,
        );
        expect(repeatables.map((repeatable) => repeatable.sql)).not.toEqual(own.repeatables!.map((r) => r.sql));
        const streamsNow = [...all.slice(0, -1), { ...own, repeatables }];
        expect(await migrate(test$.deps.db, schema, ...streamsNow)).toEqual({ applied: [], repeatables: [name] });
        expect(await migrate(test$.deps.db, schema, ...streamsNow)).toEqual({ applied: [], repeatables: [] });
        const { rows } = await test$.deps.db.query<{ text: string }>(live);
        expect(rows[0]!.text).toMatch(changed);
      });
    }
  });
}
