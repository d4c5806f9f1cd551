import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase, type Queryable } from '@whistle/service-kit';

/** A column value as searchable text: bytes as latin1 (one character per byte), big integers as digits. */
const searchable = (_key: string, value: unknown) =>
  typeof value === 'bigint'
    ? String(value)
    : value instanceof Uint8Array
      ? Buffer.from(value).toString('latin1')
      : value;

/** Every row of every table of every schema, as text: each table under a `schema.table` line. */
export async function dumpTables(db: Queryable): Promise<string> {
  const { rows: tables } = await db.query<{ table_schema: string; table_name: string }>(
    `select table_schema, table_name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const parts: string[] = [];
  for (const { table_schema: schema, table_name: table } of tables) {
    const { rows } = await db.query(`select * from "${schema.replaceAll('"', '""')}"."${table.replaceAll('"', '""')}"`);
    parts.push(`${schema}.${table}\n${rows.map((row) => JSON.stringify(row, searchable)).join('\n')}`);
  }
  return parts.join('\n');
}

/**
 * The dump of a stopped standalone platform's database. PGlite's files are binary pages (and may be
 * compressed), so searching them would prove nothing.
 */
export async function dumpDatabase(dataDir: string): Promise<string> {
  const db = await openDatabase({ dataDir });
  try {
    return await dumpTables(db);
  } finally {
    await db.close();
  }
}

/** Every file under `dir` (recursively), as bytes; none when the folder does not exist. */
export async function readTree(dir: string): Promise<Array<{ file: string; bytes: Buffer }>> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { file, bytes: await readFile(file) };
      }),
  );
}
