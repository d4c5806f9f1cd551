import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  asTenant,
  migrate,
  openDatabase,
  tenantWallSql,
  TENANT_ROLE,
  type Database,
  type Migration,
} from '../../src/database';
import { tablesOutsideTenantWall } from '../../src/testing';
import { createTestDatabase, testDatabaseUrl } from '../../src/testing/postgres';

/**
 * The second wall between companies (docs/security.md): a query that forgets `company_id = $1`, run for a tenant,
 * gets that tenant's rows and nothing of another's, on PGlite, on PostgreSQL as a superuser (as the tests connect),
 * and as an ordinary role that owns its schema, as in a cluster.
 */
const SCHEMA = 'walled';
const migrations: Migration[] = [
  {
    id: '001_tables',
    sql: `
      create table walled.company (id uuid primary key, name text not null);
      create table walled.case_file (
        id uuid primary key,
        company_id uuid not null references walled.company (id),
        title text not null
      );
      create table walled.case_note (case_id uuid not null references walled.case_file (id), body text not null);
      create table walled.counter (key text primary key, hits int not null);
    `,
  },
  {
    id: '002_tenant_wall',
    sql: tenantWallSql(SCHEMA, [
      { table: 'company', companyColumn: 'id' },
      { table: 'case_file', companyColumn: 'company_id' },
      { table: 'case_note', parent: { table: 'case_file', foreignKey: 'case_id' } },
    ]),
  },
];

const companyA = randomUUID();
const companyB = randomUUID();
const caseA = randomUUID();
const caseB = randomUUID();

async function seed(db: Database): Promise<void> {
  await migrate(db, SCHEMA, migrations);
  await db.query(`insert into walled.company values ($1, 'A'), ($2, 'B')`, [companyA, companyB]);
  await db.query(`insert into walled.case_file values ($1, $2, 'A1'), ($3, $4, 'B1')`, [
    caseA,
    companyA,
    caseB,
    companyB,
  ]);
  await db.query(`insert into walled.case_note values ($1, 'note of A'), ($2, 'note of B')`, [caseA, caseB]);
}

const engines: { name: string; open: () => Promise<{ db: Database; dispose: () => Promise<void> }> }[] = [
  {
    name: 'PGlite',
    open: async () => {
      const db = await openDatabase({});
      return { db, dispose: () => db.close() };
    },
  },
  {
    name: 'PostgreSQL as a superuser',
    open: async () => {
      const database = await createTestDatabase();
      const db = await openDatabase({ databaseUrl: database.url });
      return { db, dispose: () => db.close().finally(() => database.drop()) };
    },
  },
  {
    name: 'PostgreSQL as an ordinary role owning its schema',
    open: async () => {
      const database = await createTestDatabase();
      const role = `whistle_service_${randomUUID().slice(0, 8)}`;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        // What a cluster's service role has: its own schema, CREATEROLE for the first migration (docs/operations.md).
        await admin.query(`create role ${role} login createrole`);
        await admin.query(`grant create on database ${new URL(database.url).pathname.slice(1)} to ${role}`);
      } finally {
        await admin.end();
      }
      const url = new URL(database.url);
      url.username = role;
      const db = await openDatabase({ databaseUrl: url.toString() });
      return {
        db,
        dispose: async () => {
          await db.close();
          await database.drop();
          const cleanup = new pg.Client({ connectionString: testDatabaseUrl() });
          await cleanup.connect();
          try {
            await cleanup.query(`drop role if exists ${role}`);
          } finally {
            await cleanup.end();
          }
        },
      };
    },
  },
];

describe.each(engines)('tenant wall on $name', ({ open }) => {
  let db: Database;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ db, dispose } = await open());
    await seed(db);
  });
  afterAll(() => dispose());

  test('when a query forgets its company condition in a tenant scope, then it gets only that tenant’s rows', async () => {
    const titles = await asTenant(companyA, () => db.query<{ title: string }>('select title from walled.case_file'));
    expect(titles.rows).toEqual([{ title: 'A1' }]);
    const notes = await asTenant(companyB, () => db.query<{ body: string }>('select body from walled.case_note'));
    expect(notes.rows).toEqual([{ body: 'note of B' }]);
    const companies = await asTenant(companyA, () => db.query<{ name: string }>('select name from walled.company'));
    expect(companies.rows).toEqual([{ name: 'A' }]);
    // Even asked for by id, another company's row is not there.
    const other = await asTenant(companyA, () =>
      db.transaction((tx) => tx.query('select 1 from walled.case_file where id = $1', [caseB])),
    );
    expect(other.rows).toEqual([]);
  });

  test('when a tenant writes a row of another company, then it is refused and nothing changes', async () => {
    await expect(
      asTenant(companyA, () =>
        db.query(`insert into walled.case_file values ($1, $2, 'planted')`, [randomUUID(), companyB]),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      asTenant(companyA, () => db.query(`insert into walled.case_note values ($1, 'planted')`, [caseB])),
    ).rejects.toThrow(/row-level security/);
    const updated = await asTenant(companyA, () => db.query(`update walled.case_file set title = 'changed'`));
    expect(updated.rowCount).toBe(1);
    const deleted = await asTenant(companyA, () =>
      db.query(`delete from walled.case_note where case_id = $1`, [caseB]),
    );
    expect(deleted.rowCount).toBe(0);
    const { rows } = await db.query('select title from walled.case_file order by title');
    expect(rows).toEqual([{ title: 'B1' }, { title: 'changed' }]);
    await db.query(`update walled.case_file set title = 'A1' where id = $1`, [caseA]);
  });

  test('when tenants run at once and a scope ends, then each saw its own rows and the connections are the service’s again', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) => {
        const company = index % 2 === 0 ? companyA : companyB;
        return asTenant(company, () =>
          db.query<{ title: string }>('select title from walled.case_file').then((result) => [company, result.rows]),
        );
      }),
    );
    for (const [company, rows] of results) expect(rows).toEqual([{ title: company === companyA ? 'A1' : 'B1' }]);
    // Outside a scope the service sees every company's rows (consumers, schedulers, sign-in), as itself.
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const { rows } = await db.query<{ count: string; who: string; company: string | null }>(
        `select count(*)::text as count, current_user as who, current_setting('whistle.company_id', true) as company
           from walled.case_file`,
      );
      expect(rows[0]?.count).toBe('2');
      expect(rows[0]?.who).not.toBe(TENANT_ROLE);
      expect(rows[0]?.company || null).toBeNull();
    }
  });

  test('when a table holds company rows without a policy, then the wall check names it', async () => {
    await db.query('create table walled.forgotten (company_id uuid not null, secret text)');
    await db.query('create table walled.forgotten_child (incident_id uuid not null)');
    expect(await tablesOutsideTenantWall(db, SCHEMA)).toEqual(['forgotten', 'forgotten_child']);
    expect(await tablesOutsideTenantWall(db, SCHEMA, ['forgotten', 'forgotten_child'])).toEqual([]);
    // A table open to the role (no policy) is the service's own bookkeeping: a tenant scope can use it.
    await asTenant(companyA, () => db.query(`insert into walled.counter values ('k', 1)`));
    expect((await db.query('select hits from walled.counter')).rows).toEqual([{ hits: 1 }]);
  });

  test('when the company id is not a UUID, then no scope is opened', () => {
    expect(() => asTenant(`${companyA}', true); drop table walled.company; --`, () => undefined)).toThrow(/UUID/);
  });
});
