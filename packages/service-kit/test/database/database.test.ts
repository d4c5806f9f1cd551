/* eslint-disable max-lines -- the Database port's contract, run alike on both engines, with migrate and listen. */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/database';
import { PgliteDatabase } from '../../src/database/pglite-database';
import { createTestDatabase } from '../../src/testing/postgres';
import { waitFor } from '../../src/testing/wait-for';

interface Engine {
  db: Database;
  /** A second, independent Database on the same data (PostgreSQL only: PGlite is one per process). */
  openAnother?: () => Promise<Database>;
  /** Closes and reopens the same data (PGlite only). */
  reopen?: () => Promise<Database>;
  /** Opens the same data folder again while it is open (PGlite only). */
  openSameFolder?: () => Promise<Database>;
  dispose(): Promise<void>;
}

const engines: { name: string; start: () => Promise<Engine> }[] = [
  {
    name: 'PGlite',
    start: async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-db-'));
      const engine: Engine = {
        db: await openDatabase({ dataDir }),
        openSameFolder: () => openDatabase({ dataDir }),
        reopen: async () => {
          await engine.db.close();
          engine.db = await openDatabase({ dataDir });
          return engine.db;
        },
        dispose: async () => {
          await engine.db.close();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
      return engine;
    },
  },
  {
    name: 'PostgreSQL',
    start: async () => {
      const testDb = await createTestDatabase();
      const engine: Engine = {
        db: await openDatabase({ databaseUrl: testDb.url }),
        openAnother: () => openDatabase({ databaseUrl: testDb.url }),
        dispose: async () => {
          await engine.db.close();
          await testDb.drop();
        },
      };
      return engine;
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(engines)('Database on $name', ({ start }) => {
  let engine: Engine;
  let db: Database;

  beforeAll(async () => {
    engine = await start();
    db = engine.db;
    await db.query('CREATE SCHEMA app; CREATE TABLE app.item (id int PRIMARY KEY, label text NOT NULL)');
  });
  afterAll(() => engine?.dispose());

  it('when queried with parameters, then returns typed rows the same way on both engines', async () => {
    const { rows, rowCount } = await db.query<Record<string, unknown>>(
      `SELECT $1::int AS int4, 7::int8 AS int8, $2::jsonb AS doc, $3::timestamptz AS at,
              '\\x0102'::bytea AS bytes, interval '1 day' AS span, 1.5::numeric AS num, ARRAY[$4::uuid] AS ids`,
      [5, JSON.stringify({ a: 1 }), new Date('2024-05-06T07:08:09.000Z'), '00000000-0000-4000-8000-000000000001'],
    );
    expect(rowCount).toBe(1);
    expect(rows[0]).toEqual({
      int4: 5,
      int8: '7',
      doc: { a: 1 },
      at: new Date('2024-05-06T07:08:09.000Z'),
      bytes: Buffer.from([1, 2]),
      span: '1 day',
      num: '1.5',
      ids: ['00000000-0000-4000-8000-000000000001'],
    });
    expect(Buffer.isBuffer(rows[0]!.bytes)).toBe(true);
  });

  it('when a statement changes rows, then rowCount counts them', async () => {
    const inserted = await db.query('INSERT INTO app.item (id, label) VALUES ($1, $2), ($3, $4)', [1, 'one', 2, 'two']);
    expect(inserted.rowCount).toBe(2);
    const updated = await db.query('UPDATE app.item SET label = label WHERE id > $1', [100]);
    expect(updated.rowCount).toBe(0);
  });

  it('when several statements run without parameters, then the last result is returned', async () => {
    const { rows } = await db.query<{ n: string }>('SELECT 1 AS ignored; SELECT count(*) AS n FROM app.item');
    expect(rows).toEqual([{ n: '2' }]);
  });

  it('when the transaction resolves, then its writes are committed and its value returned', async () => {
    const value = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO app.item (id, label) VALUES ($1, $2)', [3, 'three']);
      return 'done';
    });
    expect(value).toBe('done');
    expect((await db.query('SELECT label FROM app.item WHERE id = 3')).rows).toEqual([{ label: 'three' }]);
  });

  it('when the transaction throws, then its writes are rolled back and the error is rethrown', async () => {
    const failure = new Error('business rule broken');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO app.item (id, label) VALUES ($1, $2)', [4, 'four']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await db.query('SELECT * FROM app.item WHERE id = 4')).rowCount).toBe(0);
  });

  it('when a statement fails inside the transaction, then nothing of it is kept and the database stays usable', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO app.item (id, label) VALUES ($1, $2)', [5, 'five']);
        await tx.query('INSERT INTO app.item (id, label) VALUES ($1, $2)', [5, 'duplicate']);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await db.query('SELECT * FROM app.item WHERE id = 5')).rowCount).toBe(0);
    expect((await db.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
  });

  it('when a failed statement is caught inside the transaction, then committing is refused and nothing is kept', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO app.item (id, label) VALUES ($1, $2)', [6, 'six']);
        await tx.query('SELECT * FROM app.missing').catch(() => undefined);
      }),
    ).rejects.toThrow(/abort|rolled back/i);
    expect((await db.query('SELECT * FROM app.item WHERE id = 6')).rowCount).toBe(0);
  });

  it('when the transaction object is used after the transaction ended, then the query is refused', async () => {
    let leaked: { query: Database['query'] } | undefined;
    await db.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.query('SELECT 1')).rejects.toThrow(/Transaction already finished/);
  });

  it('when many read-modify-write transactions run at once, then none loses an update', async () => {
    await db.query(
      'CREATE TABLE app.counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO app.counter VALUES (1, 0)',
    );
    await Promise.all(
      Array.from({ length: 8 }, () =>
        db.transaction(async (tx) => {
          const { rows } = await tx.query<{ n: number }>('SELECT n FROM app.counter WHERE id = 1 FOR UPDATE');
          await sleep(5);
          await tx.query('UPDATE app.counter SET n = $1 WHERE id = 1', [rows[0]!.n + 1]);
        }),
      ),
    );
    expect((await db.query('SELECT n FROM app.counter')).rows).toEqual([{ n: 8 }]);
  });

  it('when a query is named, then it answers as an unnamed one, and PostgreSQL keeps it prepared on the connection', async () => {
    const prepared = await db.transaction(async (tx) => {
      for (const id of [1, 2]) {
        const { rows } = await tx.query('select $1::int + 1 as next', [id], { name: 'test_next' });
        expect(rows).toEqual([{ next: id + 1 }]);
      }
      return (await tx.query<{ name: string }>('select name from pg_prepared_statements')).rows.map((row) => row.name);
    });
    if (engine.openAnother) expect(prepared).toContain('test_next');
    expect((await db.query('select $1::int + 1 as next', [41], { name: 'test_next' })).rows).toEqual([{ next: 42 }]);
  });

  describe('listen', () => {
    function recorder() {
      const events: string[] = [];
      return {
        events,
        listener: {
          notified: (payload: string) => events.push(`notified ${payload}`),
          listening: () => events.push('listening'),
          interrupted: () => events.push('interrupted'),
        },
      };
    }

    it('when a transaction that notifies commits, then listeners get the payload (from another connection too); a rolled back one sends nothing', async () => {
      const sender = engine.openAnother ? await engine.openAnother() : db;
      const { events, listener } = recorder();
      const subscription = await db.listen('test_changes', listener);
      try {
        await expect(
          sender.transaction(async (tx) => {
            await tx.query('select pg_notify($1, $2)', ['test_changes', 'rolled back']);
            throw new Error('abort');
          }),
        ).rejects.toThrow('abort');
        await sender.transaction(async (tx) => {
          await tx.query('select pg_notify($1, $2)', ['test_changes', 'committed']);
        });
        await sender.query('select pg_notify($1, $2)', ['other_channel', 'elsewhere']);
        await waitFor(() => events.includes('notified committed'), { what: 'the notification' });
        await sender.query('select pg_notify($1, $2)', ['test_changes', 'last']);
        await waitFor(() => events.includes('notified last'), { what: 'the last notification' });
        expect(events).toEqual(['listening', 'notified committed', 'notified last']);
      } finally {
        await subscription.close();
        if (sender !== db) await sender.close();
      }
    });

    it('when the listening connection is lost, then the listener hears of it, and of listening again, and gets later notifications', async () => {
      if (!engine.openAnother) return; // PGlite: the connection is the process itself.
      const { events, listener } = recorder();
      const subscription = await db.listen('test_changes', listener);
      try {
        await db.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and query = 'LISTEN test_changes'`,
        );
        await waitFor(() => events.filter((event) => event === 'listening').length === 2, { what: 'listening again' });
        await db.query('select pg_notify($1, $2)', ['test_changes', 'after']);
        await waitFor(() => events.includes('notified after'), { what: 'the notification after reconnecting' });
        expect(events).toEqual(['listening', 'interrupted', 'listening', 'notified after']);
      } finally {
        await subscription.close();
      }
    });

    it('when the channel is not a plain identifier, then listening is refused', async () => {
      await expect(db.listen('x; drop table app.item', recorder().listener)).rejects.toThrow(/channel name/);
    });
  });

  it('when the PGlite data folder is opened a second time in this process, then it is refused', async () => {
    if (!engine.openSameFolder) return; // PostgreSQL: many pools on one database are normal.
    await expect(engine.openSameFolder()).rejects.toThrow(/already open in this process/);
  });

  it('when PGlite is closed and reopened on its data folder, then the data is still there', async () => {
    if (!engine.reopen) return; // PostgreSQL keeps data on its server; nothing to reopen here.
    db = await engine.reopen();
    expect((await db.query('SELECT label FROM app.item ORDER BY id')).rows).toEqual([
      { label: 'one' },
      { label: 'two' },
      { label: 'three' },
    ]);
  });
});

describe('openDatabase', () => {
  it('when PGlite is given a shared_buffers size, then it runs with it (resident memory); without, with its own default', async () => {
    const small = await openDatabase({ pgliteSharedBuffers: '16MB' });
    try {
      expect((await small.query('show shared_buffers')).rows).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await small.close();
    }
    const standard = await openDatabase({});
    try {
      expect((await standard.query('show shared_buffers')).rows).toEqual([{ shared_buffers: '128MB' }]);
    } finally {
      await standard.close();
    }
  });

  /** Files PGlite's commits fsync(2), relative to `dataDir` (read from /proc: Linux, like the servers). */
  async function filesSyncedBy(dataDir: string, work: () => Promise<unknown>): Promise<string[]> {
    const realFsync = fs.fsyncSync;
    const synced: string[] = [];
    const spy = jest.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      synced.push(path.relative(dataDir, fs.readlinkSync(`/proc/self/fd/${fd}`)));
      realFsync(fd);
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return synced;
  }

  it('when PGlite opens a data folder, then fsync is on and a commit returns after fsync(2) of its WAL file', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-db-'));
    let db = await openDatabase({ dataDir, pgliteFsync: false });
    await db.close();
    // What was written with fsync off (here: the whole new folder) is synced when it is opened with fsync on.
    const syncedAtOpen = await filesSyncedBy(dataDir, async () => {
      db = await openDatabase({ dataDir });
    });
    expect(syncedAtOpen).toEqual(expect.arrayContaining(['pgdata/PG_VERSION', 'pgdata/global/pg_control', 'pgdata']));
    try {
      expect((await db.query('show fsync')).rows).toEqual([{ fsync: 'on' }]);
      // fdatasync() is a no-op in PGlite's Emscripten layer; fsync() is the one that reaches the disk.
      expect((await db.query('show wal_sync_method')).rows).toEqual([{ wal_sync_method: 'fsync' }]);
      await db.query('CREATE TABLE kept (id int)');
      const synced = await filesSyncedBy(dataDir, () => db.query('INSERT INTO kept VALUES (1)'));
      expect(synced).toContainEqual(expect.stringMatching(/^pgdata\/pg_wal\/[0-9A-F]{24}$/));
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('when PGlite fsync is turned off, then it runs with its own default and a commit syncs nothing', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-db-'));
    const db = await openDatabase({ dataDir, pgliteFsync: false });
    try {
      expect((await db.query('show fsync')).rows).toEqual([{ fsync: 'off' }]);
      await db.query('CREATE TABLE kept (id int)');
      expect(await filesSyncedBy(dataDir, () => db.query('INSERT INTO kept VALUES (1)'))).toEqual([]);
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  /** Rows of an index-only scan over `churn` that were read from the table: the visibility map did not vouch for them. */
  async function heapFetches(db: Database): Promise<number> {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(
      'explain (analyze, costs off) select count(*) from churn where id between 1 and 20000',
    );
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('Index Only Scan');
    return Number(/Heap Fetches: (\d+)/.exec(plan)?.[1]);
  }

  it('when PGlite tables pass autovacuum’s thresholds, then a maintenance round vacuums or analyses just those, and index-only scans stop reading the table', async () => {
    const db = await PgliteDatabase.open();
    try {
      await db.query(`
        create table churn (id int primary key, v text);
        insert into churn select g, 'x' from generate_series(1, 20000) g;
        delete from churn where id % 2 = 0;
        create table settled (id int primary key, v text);
        insert into settled select g, 'x' from generate_series(1, 1000) g;
      `);
      await db.query('vacuum analyze settled'); // a statement of its own: VACUUM runs in no transaction
      await db.query(`
        update settled set v = 'y' where id <= 200;
        create table quiet (id int primary key);
        insert into quiet select g from generate_series(1, 10) g;
      `);
      await db.query('set enable_seqscan = off; set enable_bitmapscan = off'); // the plan under test: index-only
      expect(await heapFetches(db)).toBeGreaterThan(0);
      // 10,000 dead rows in churn (threshold 50 + 20 % of its rows); 200 changed rows in settled: past analyze's
      // threshold (50 + 10 % of 1,000) but not vacuum's (50 + 20 %); quiet: 10 new rows, under both.
      expect(await db.maintain()).toEqual([
        { table: 'public.churn', action: 'vacuum' },
        { table: 'public.settled', action: 'analyze' },
      ]);
      expect(await heapFetches(db)).toBe(0);
      expect(await db.maintain()).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('when PGlite opens a data folder, then maintenance rounds run on their own until it closes', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-db-'));
    const db = await openDatabase({ dataDir, pgliteFsync: false, pgliteMaintenanceIntervalMs: 100 });
    try {
      await db.query(`
        create table churn (id int primary key, v text);
        insert into churn select g, 'x' from generate_series(1, 5000) g;
        delete from churn where id % 2 = 0;
      `);
      await waitFor(
        async () =>
          (
            await db.query<{ last_vacuum: Date | null }>(
              `select last_vacuum from pg_stat_user_tables where relname = 'churn'`,
            )
          ).rows[0]?.last_vacuum,
        { what: 'a vacuum of churn' },
      );
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('when PostgreSQL is unreachable, then it fails at once with the URL (password hidden)', async () => {
    await expect(openDatabase({ databaseUrl: 'postgres://app:secret@127.0.0.1:1/none' })).rejects.toThrow(
      /Cannot reach PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/none/,
    );
  });
});
