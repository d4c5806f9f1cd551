import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Migration, MigrationStream, RepeatableDefinition } from './database';

/** `NNN_what_it_does.sql`: the number orders the stream; the file name without `.sql` is the migration's id. */
const MIGRATION_FILE = /^\d{3}_[a-z0-9_]+\.sql$/;

/** The folders of repeatable definitions, in the order they are applied: a view or a trigger may use a function. */
const REPEATABLE_FOLDERS = ['functions', 'views', 'triggers'] as const;

function sqlFilesIn(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort();
}

/**
 * A service schema's SQL files as its migration stream (docs/architecture.md, "The database's state in files"):
 * `<folder>/migrations/NNN_name.sql`, the schema's history, each file applied once and never edited; and
 * `<folder>/sql/{functions,views,triggers}/*.sql`, the current text of each function, view and trigger, applied
 * again whenever it changes. The build copies them beside the compiled code (swc --copy-files), so `folder` is the
 * calling module's own (`__dirname`) in src/ and in dist/ alike.
 */
export function readSchemaFiles(name: string, folder: string): MigrationStream {
  const migrationsFolder = path.join(folder, 'migrations');
  const migrations: Migration[] = sqlFilesIn(migrationsFolder).map((file) => {
    if (!MIGRATION_FILE.test(file))
      throw new Error(`${path.join(migrationsFolder, file)}: a migration's name is NNN_name.sql (${MIGRATION_FILE})`);
    return { id: file.slice(0, -'.sql'.length), sql: readFileSync(path.join(migrationsFolder, file), 'utf8') };
  });
  if (migrations.length === 0) throw new Error(`No migration in ${migrationsFolder}`);
  const repeatables: RepeatableDefinition[] = REPEATABLE_FOLDERS.flatMap((kind) => {
    const kindFolder = path.join(folder, 'sql', kind);
    return sqlFilesIn(kindFolder).map((file) => ({
      name: `${kind}/${file}`,
      sql: readFileSync(path.join(kindFolder, file), 'utf8'),
    }));
  });
  return { name, migrations, repeatables };
}
