import { runMigrateCommand } from '../../src/cli/migrate-command';
import { migrate, migrationStatus, openDatabase, type MigrationStream } from '../../src/database';
import { schemaStreams } from '../../src/service-lifecycle';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres';

/** A service's schema as its service.ts declares it: one stream of its own, with a function. */
const release = (
  migrations: [string, string][],
  functionSql = 'CREATE OR REPLACE FUNCTION ops.two() RETURNS int AS $$ SELECT 2 $$ LANGUAGE sql',
) => ({
  name: 'ops',
  schema: 'ops',
  migrations: [
    {
      name: 'ops',
      migrations: migrations.map(([id, sql]) => ({ id, sql })),
      repeatables: [{ name: 'functions/two.sql', sql: functionSql }],
    },
  ] satisfies MigrationStream[],
});
const v1 = release([['001_case', 'CREATE TABLE ops.case_file (id int PRIMARY KEY)']]);
const v2 = release([
  ['001_case', 'CREATE TABLE ops.case_file (id int PRIMARY KEY)'],
  ['002_note', 'CREATE TABLE ops.note (id int PRIMARY KEY)'],
]);

describe('npm run migrate -- status|up', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  });
  afterAll(() => database?.drop());

  /** The command's exit code and its lines. */
  async function run(service: ReturnType<typeof release>, ...argv: string[]) {
    const lines: string[] = [];
    const code = await runMigrateCommand(service, argv, env, (line) => lines.push(line));
    return { code, lines, text: lines.join('\n') };
  }
  const statesOf = async (service: ReturnType<typeof release>) => {
    const { code, lines } = await run(service, 'status', '--json');
    const status = JSON.parse(lines[0]!);
    return {
      code,
      migrations: status.migrations.map(
        (m: { stream: string; id: string; state: string }) => `${m.stream}/${m.id} ${m.state}`,
      ),
      repeatables: status.repeatables.map((r: { name: string; state: string }) => `${r.name} ${r.state}`),
      unknown: status.unknown.map((u: { id: string }) => u.id),
    };
  };

  it('when the schema is new, then status lists every migration as pending and changes nothing; up applies them; status then reads applied', async () => {
    const before = await statesOf(v1);
    expect(before.code).toBe(0);
    // The kit's messaging stream comes first, as the service's start applies it.
    expect(before.migrations[0]).toMatch(/^messaging\/.* pending$/);
    expect(before.migrations).toContain('ops/001_case pending');
    expect(before.repeatables).toEqual(['functions/two.sql new']);
    const db = await openDatabase({ databaseUrl: database.url });
    try {
      expect((await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'ops'`)).rowCount).toBe(0);
    } finally {
      await db.close();
    }

    const up = await run(v1, 'up');
    expect(up.code).toBe(0);
    expect(up.lines).toContain('applied  001_case');
    expect(up.lines).toContain('defined  functions/two.sql');

    const after = await statesOf(v1);
    expect(after.migrations.every((line: string) => line.endsWith(' applied'))).toBe(true);
    expect(after.repeatables).toEqual(['functions/two.sql current']);
    // The text form names each migration with its state, when it was applied and its checksum.
    expect((await run(v1, 'status')).text).toMatch(/^applied +ops\/001_case +\d{4}-\d\d-\d\dT\S+Z +[0-9a-f]{64}$/m);
  });

  it('when a newer release adds a migration and changes a function, then status says pending and changed, and up applies both', async () => {
    const changed = release(
      v2.migrations[0]!.migrations.map((m) => [m.id, m.sql]),
      'CREATE OR REPLACE FUNCTION ops.two() RETURNS int AS $$ SELECT 1 + 1 $$ LANGUAGE sql',
    );
    const before = await statesOf(changed);
    expect(before.migrations).toContain('ops/002_note pending');
    expect(before.repeatables).toEqual(['functions/two.sql changed']);
    expect((await run(changed, 'up')).lines).toEqual([
      'applied  002_note',
      'defined  functions/two.sql',
      'ops: 1 migrations and 1 definitions applied',
    ]);
  });

  it('when the code is rolled back to the older release, then status names the migration it does not know', async () => {
    const rolledBack = await statesOf(v1);
    expect(rolledBack.code).toBe(0);
    expect(rolledBack.unknown).toEqual(['002_note']);
  });

  it('when an applied migration was edited, then status exits 1 naming it, and up refuses', async () => {
    const edited = release([
      ['001_case', 'CREATE TABLE ops.case_file (id bigint PRIMARY KEY)'],
      ['002_note', 'CREATE TABLE ops.note (id int PRIMARY KEY)'],
    ]);
    const status = await statesOf(edited);
    expect(status.code).toBe(1);
    expect(status.migrations).toContain('ops/001_case edited');
    await expect(run(edited, 'up')).rejects.toThrow(/applied migrations were edited since: 001_case/);
  });

  it('when the command or the database is wrong, then a usage error or a clear message, never a half-run', async () => {
    expect((await run(v1)).code).toBe(2);
    expect((await run(v1, 'down')).code).toBe(2);
    await expect(
      runMigrateCommand(v1, ['status'], { DATABASE_URL: 'mysql://nowhere' }, () => undefined),
    ).rejects.toThrow(/DATABASE_URL/);
  });
});

it('migrationStatus on PGlite reads the same as the service start leaves it', async () => {
  const db = await openDatabase({});
  try {
    await migrate(db, 'ops', ...schemaStreams(v1));
    const status = await migrationStatus(db, 'ops', ...schemaStreams(v2));
    expect(status.migrations.filter((m) => m.state !== 'applied').map((m) => m.id)).toEqual(['002_note']);
    expect(status.unknown).toEqual([]);
  } finally {
    await db.close();
  }
});
