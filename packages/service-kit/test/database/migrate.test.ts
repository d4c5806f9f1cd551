import {
  migrate,
  openDatabase,
  sqlChecksum,
  type Database,
  type Migration,
  type MigrationStream,
} from '../../src/database';
import { createTestDatabase } from '../../src/testing/postgres';

interface Engine {
  db: Database;
  /** A second Database on the same data (PostgreSQL only: PGlite is one connection in one process). */
  openAnother?: () => Promise<Database>;
  dispose(): Promise<void>;
}

const engines: { name: string; start: () => Promise<Engine> }[] = [
  {
    name: 'PGlite',
    start: async () => {
      const db = await openDatabase({});
      return { db, dispose: () => db.close() };
    },
  },
  {
    name: 'PostgreSQL',
    start: async () => {
      const testDb = await createTestDatabase();
      const db = await openDatabase({ databaseUrl: testDb.url });
      return {
        db,
        openAnother: () => openDatabase({ databaseUrl: testDb.url }),
        dispose: async () => {
          await db.close();
          await testDb.drop();
        },
      };
    },
  },
];

const stream = (name: string, migrations: Migration[], repeatables?: MigrationStream['repeatables']) => ({
  name,
  migrations,
  ...(repeatables && { repeatables }),
});

describe.each(engines)('migrate on $name', ({ start }) => {
  let engine: Engine;
  let db: Database;
  beforeAll(async () => {
    engine = await start();
    db = engine.db;
  });
  afterAll(() => engine?.dispose());

  const ids = async (schema: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM ${schema}.schema_migration ORDER BY id`)).rows.map((r) => r.id);

  describe('migrations', () => {
    const notes: Migration[] = [
      // Given out of order on purpose: ids decide the order.
      { id: '002_add_index', sql: 'CREATE INDEX note_body_idx ON notes.note (body)' },
      {
        id: '001_note',
        sql: 'CREATE TABLE notes.note (id int PRIMARY KEY, body text NOT NULL); INSERT INTO notes.note VALUES (1, $$first$$);',
      },
    ];

    it('when run on an empty database, then it creates the schema and applies every migration in id order, each with the checksum of its text', async () => {
      expect(await migrate(db, 'notes', stream('notes', notes))).toEqual({
        applied: ['001_note', '002_add_index'],
        repeatables: [],
      });
      expect((await db.query('SELECT id, checksum FROM notes.schema_migration ORDER BY id')).rows).toEqual([
        { id: '001_note', checksum: sqlChecksum(notes[1]!.sql) },
        { id: '002_add_index', checksum: sqlChecksum(notes[0]!.sql) },
      ]);
      expect((await db.query('SELECT body FROM notes.note')).rows).toEqual([{ body: 'first' }]);
    });

    it('when run again, then it applies nothing', async () => {
      expect(await migrate(db, 'notes', stream('notes', notes))).toEqual({ applied: [], repeatables: [] });
      expect((await db.query('SELECT count(*) AS n FROM notes.note')).rows).toEqual([{ n: '1' }]);
    });

    it('when a new migration is added, then only it is applied', async () => {
      const more = [...notes, { id: '003_second_note', sql: 'INSERT INTO notes.note VALUES (2, $$second$$)' }];
      expect(await migrate(db, 'notes', stream('notes', more))).toEqual({
        applied: ['003_second_note'],
        repeatables: [],
      });
    });

    it('when an applied migration was edited, then it refuses to go on, naming it and its stream, and applies nothing else', async () => {
      const edited = [
        notes[0]!,
        { ...notes[1]!, sql: notes[1]!.sql.replace('body text NOT NULL', 'body text') },
        { id: '004_never', sql: 'CREATE TABLE notes.never (id int)' },
      ];
      await expect(migrate(db, 'notes', stream('notes', edited))).rejects.toThrow(
        new RegExp(
          `Schema notes: applied migrations were edited since: 001_note \\(stream notes: applied as ${sqlChecksum(notes[1]!.sql)}, now ${sqlChecksum(edited[1]!.sql)}\\)\\. An applied migration never changes`,
        ),
      );
      expect(await ids('notes')).toEqual(['001_note', '002_add_index', '003_second_note']);
      // Only a character of layout is an edit too: the checksum is of the exact text.
      await expect(migrate(db, 'notes', stream('notes', [{ ...notes[0]!, sql: `${notes[0]!.sql} ` }]))).rejects.toThrow(
        /edited since: 002_add_index/,
      );
    });

    it('when a migration fails, then it is rolled back, named in the error, and the earlier ones stay applied', async () => {
      const broken = [
        { id: '001_t', sql: 'CREATE TABLE broken.t (id int)' },
        { id: '002_bad', sql: 'CREATE TABLE broken.u (id int); SELECT * FROM broken.missing' },
      ];
      await expect(migrate(db, 'broken', stream('broken', broken))).rejects.toThrow(
        /Migration broken\/002_bad failed: .*missing/,
      );
      expect(await ids('broken')).toEqual(['001_t']);
      expect(
        (
          await db.query(
            `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'broken' AND table_name = 'u'`,
          )
        ).rows,
      ).toEqual([{ n: '0' }]);
    });

    it('when the schema name is not a plain identifier, then it is refused before any SQL runs', async () => {
      await expect(migrate(db, 'x; DROP SCHEMA app CASCADE')).rejects.toThrow(/Invalid schema name/);
      await expect(migrate(db, 'Upper')).rejects.toThrow(/Invalid schema name/);
    });

    it('when two migration ids collide, in one stream or in two, then it refuses', async () => {
      const one = { id: '001', sql: 'SELECT 1' };
      await expect(migrate(db, 'dup', stream('dup', [one, { id: '001', sql: 'SELECT 2' }]))).rejects.toThrow(
        /Duplicate migration id 001 in schema dup \(streams dup, dup\)/,
      );
      await expect(migrate(db, 'dup', stream('kit', [one]), stream('dup', [one]))).rejects.toThrow(
        /Duplicate migration id 001 in schema dup \(streams kit, dup\)/,
      );
    });

    it('when given several streams, then it applies them one after another, each in its id order', async () => {
      // The later stream's table refers to the earlier one's: applied by id across streams, 001 would come first.
      const result = await migrate(
        db,
        'streams',
        stream('kit', [{ id: '900_kit_table', sql: 'CREATE TABLE streams.kit (id int PRIMARY KEY)' }]),
        stream('service', [
          { id: '002_more', sql: 'ALTER TABLE streams.own ADD COLUMN more int' },
          { id: '001_own', sql: 'CREATE TABLE streams.own (kit_id int REFERENCES streams.kit (id))' },
        ]),
      );
      expect(result.applied).toEqual(['900_kit_table', '001_own', '002_more']);
    });

    it('when two migrate calls race, then each migration is applied exactly once', async () => {
      // CREATE TABLE without IF NOT EXISTS fails if it ever runs twice.
      const racing = stream(
        'race',
        Array.from({ length: 5 }, (_, i) => ({
          id: `00${i}_t${i}`,
          sql: `CREATE TABLE race.t${i} (id int); SELECT pg_sleep(0.02);`,
        })),
      );
      const other = engine.openAnother ? await engine.openAnother() : db;
      try {
        const results = await Promise.all([migrate(db, 'race', racing), migrate(other, 'race', racing)]);
        expect([...results[0].applied, ...results[1].applied].sort()).toEqual(racing.migrations.map((m) => m.id));
        expect((await db.query('SELECT count(*) AS n FROM race.schema_migration')).rows).toEqual([{ n: '5' }]);
      } finally {
        if (other !== db) await other.close();
      }
    });
  });

  describe('a database migrated before checksums were recorded', () => {
    const history: Migration[] = [
      // Would fail if it ran a second time.
      { id: '001_item', sql: 'CREATE TABLE legacy.item (id int PRIMARY KEY)' },
      { id: '002_label', sql: 'ALTER TABLE legacy.item ADD COLUMN label text' },
    ];

    beforeAll(async () => {
      // As migrate left it then: ids and times, no checksum.
      await db.query('CREATE SCHEMA legacy');
      await db.query(
        'CREATE TABLE legacy.schema_migration (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const migration of history) {
        await db.query(migration.sql);
        await db.query('INSERT INTO legacy.schema_migration (id) VALUES ($1)', [migration.id]);
      }
    });

    it('when it is migrated, then nothing runs again and each applied migration takes the checksum of its text', async () => {
      const more = { id: '003_note', sql: 'ALTER TABLE legacy.item ADD COLUMN note text' };
      expect(await migrate(db, 'legacy', stream('legacy', [...history, more]))).toEqual({
        applied: ['003_note'],
        repeatables: [],
      });
      expect((await db.query('SELECT id, checksum FROM legacy.schema_migration ORDER BY id')).rows).toEqual(
        [...history, more].map((migration) => ({ id: migration.id, checksum: sqlChecksum(migration.sql) })),
      );
    });

    it('when one of its migrations is edited afterwards, then it is refused', async () => {
      const edited = [history[0]!, { ...history[1]!, sql: 'ALTER TABLE legacy.item ADD COLUMN label varchar(20)' }];
      await expect(migrate(db, 'legacy', stream('legacy', edited))).rejects.toThrow(/edited since: 002_label/);
    });
  });

  describe('repeatable definitions', () => {
    const table: Migration = { id: '001_item', sql: 'CREATE TABLE defs.item (id int PRIMARY KEY, label text)' };
    const label = (text: string) => ({
      name: 'functions/item_label.sql',
      sql: `create or replace function defs.item_label(id int) returns text language sql stable as $$
              select ${text} || label from defs.item where item.id = item_label.id
            $$;`,
    });
    const trigger = {
      name: 'triggers/item_labelled.sql',
      sql: `create or replace function defs.label_item() returns trigger language plpgsql as $$
            begin new.label := coalesce(new.label, 'unnamed'); return new; end; $$;
            create or replace trigger item_labelled before insert on defs.item
              for each row execute function defs.label_item();`,
    };
    const labelOf = async (id: number) =>
      (await db.query<{ label: string }>('SELECT defs.item_label($1) AS label', [id])).rows[0]!.label;

    it('when the schema is migrated, then they are applied after the migrations, in the order given', async () => {
      const result = await migrate(db, 'defs', stream('defs', [table], [label("'#'"), trigger]));
      expect(result).toEqual({ applied: ['001_item'], repeatables: [label('').name, trigger.name] });
      await db.query('INSERT INTO defs.item (id) VALUES (1)');
      expect(await labelOf(1)).toBe('#unnamed');
    });

    it('when one changes, then it alone is applied again, once: the function is its new text', async () => {
      const changed = label("'No. '");
      expect(await migrate(db, 'defs', stream('defs', [table], [changed, trigger]))).toEqual({
        applied: [],
        repeatables: [changed.name],
      });
      expect(await labelOf(1)).toBe('No. unnamed');
      expect(await migrate(db, 'defs', stream('defs', [table], [changed, trigger]))).toEqual({
        applied: [],
        repeatables: [],
      });
      expect(
        (await db.query('SELECT name, checksum FROM defs.schema_repeatable ORDER BY name')).rows.map((row) => row),
      ).toEqual([
        { name: changed.name, checksum: sqlChecksum(changed.sql) },
        { name: trigger.name, checksum: sqlChecksum(trigger.sql) },
      ]);
    });

    it('when two migrate calls race after a change, then it is applied once', async () => {
      const changed = stream('defs', [table], [label("'Item '"), trigger]);
      const other = engine.openAnother ? await engine.openAnother() : db;
      try {
        const results = await Promise.all([migrate(db, 'defs', changed), migrate(other, 'defs', changed)]);
        expect([...results[0].repeatables, ...results[1].repeatables]).toEqual([label('').name]);
        expect(await labelOf(1)).toBe('Item unnamed');
      } finally {
        if (other !== db) await other.close();
      }
    });

    it('when one fails, then it is named in the error, and the definition before stays in force', async () => {
      const broken = { ...label("'X'"), sql: label("'X'").sql.replace('defs.item ', 'defs.missing ') };
      await expect(migrate(db, 'defs', stream('defs', [table], [broken, trigger]))).rejects.toThrow(
        /Repeatable definition defs\/functions\/item_label.sql failed: .*missing/,
      );
      expect(await labelOf(1)).toBe('Item unnamed');
    });

    it('when two share a name, then it refuses', async () => {
      await expect(migrate(db, 'defs', stream('a', [table], [trigger]), stream('b', [], [trigger]))).rejects.toThrow(
        /Duplicate repeatable definition triggers\/item_labelled.sql in schema defs \(streams a, b\)/,
      );
    });
  });
});
