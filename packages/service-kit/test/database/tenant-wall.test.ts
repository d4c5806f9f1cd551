import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  asTenant,
  migrate,
  openDatabase,
  serviceDatabase,
  SHARED_TENANT_ROLE,
  tenantRoleFor,
  tenantRolePerSchemaSql,
  tenantWallSql,
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
  await migrate(db, SCHEMA, { name: 'walled', migrations });
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
  let raw: Database;
  let db: Database;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ db: raw, dispose } = await open());
    // As a service sees its database: its tenant scopes run as its schema's role.
    db = serviceDatabase(raw, SCHEMA);
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
      expect(rows[0]?.who).not.toBe(tenantRoleFor(SCHEMA));
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

  test('when a tenant scope reaches a database that is no service’s, then nothing runs: no role spans every schema', async () => {
    await expect(asTenant(companyA, () => raw.query('select title from walled.case_file'))).rejects.toThrow(
      /without a tenant role/,
    );
    await expect(
      asTenant(companyA, () => raw.transaction((tx) => tx.query('select title from walled.case_file'))),
    ).rejects.toThrow(/without a tenant role/);
  });

  test('when a schema walled with the role every service shared is upgraded, then its own role holds the wall and the shared one keeps nothing', async () => {
    // The 'legacy' schema as tenantWallSql built it before each schema had its own role (migrations already run
    // in existing databases keep that SQL).
    await raw.query(`
      do $$ begin
        if not exists (select from pg_roles where rolname = '${SHARED_TENANT_ROLE}') then
          create role ${SHARED_TENANT_ROLE} nologin nosuperuser nobypassrls;
        end if;
      exception when duplicate_object or unique_violation then null;
      end $$;
      do $$ begin
        if not pg_has_role(current_user, '${SHARED_TENANT_ROLE}', 'MEMBER') then
          execute format('grant ${SHARED_TENANT_ROLE} to %I', current_user);
        end if;
      end $$;
      create schema legacy;
      create table legacy.item (id serial primary key, company_id uuid not null, name text not null);
      grant usage on schema legacy to ${SHARED_TENANT_ROLE};
      grant select, insert, update, delete on all tables in schema legacy to ${SHARED_TENANT_ROLE};
      grant usage, select on all sequences in schema legacy to ${SHARED_TENANT_ROLE};
      alter default privileges in schema legacy grant select, insert, update, delete on tables to ${SHARED_TENANT_ROLE};
      alter table legacy.item enable row level security;
      create policy tenant_wall on legacy.item to ${SHARED_TENANT_ROLE}
        using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid)
        with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
    `);
    await raw.query(`insert into legacy.item (company_id, name) values ($1, 'of A'), ($2, 'of B')`, [
      companyA,
      companyB,
    ]);

    await raw.query(tenantRolePerSchemaSql('legacy'));

    const policies = await raw.query<{ roles: string[] }>(
      `select roles::text[] as roles from pg_policies where schemaname = 'legacy' and policyname = 'tenant_wall'`,
    );
    expect(policies.rows).toEqual([{ roles: [tenantRoleFor('legacy')] }]);
    const shared = await raw.query<{ usage: boolean; item: boolean; sequence: boolean }>(
      `select has_schema_privilege('${SHARED_TENANT_ROLE}', 'legacy', 'usage') as usage,
              has_table_privilege('${SHARED_TENANT_ROLE}', 'legacy.item', 'select, insert, update, delete') as item,
              has_sequence_privilege('${SHARED_TENANT_ROLE}', 'legacy.item_id_seq', 'usage, select') as sequence`,
    );
    expect(shared.rows).toEqual([{ usage: false, item: false, sequence: false }]);
    // A table created later is not the shared role's either (default privileges), and the wall still holds.
    await raw.query('create table legacy.later (id int)');
    const later = await raw.query<{ granted: boolean }>(
      `select has_table_privilege('${SHARED_TENANT_ROLE}', 'legacy.later', 'select') as granted`,
    );
    expect(later.rows).toEqual([{ granted: false }]);
    const legacy = serviceDatabase(raw, 'legacy');
    const seen = await asTenant(companyA, () => legacy.query<{ name: string }>('select name from legacy.item'));
    expect(seen.rows).toEqual([{ name: 'of A' }]);
    // Run again (a schema walled with its own role from the start gets it too): nothing changes.
    await raw.query(tenantRolePerSchemaSql('legacy'));
    expect((await asTenant(companyB, () => legacy.query('select name from legacy.item'))).rows).toEqual([
      { name: 'of B' },
    ]);
  });

  test('when the company id is not a UUID, then no scope is opened', () => {
    expect(() => asTenant(`${companyA}', true); drop table walled.company; --`, () => undefined)).toThrow(/UUID/);
  });
});
