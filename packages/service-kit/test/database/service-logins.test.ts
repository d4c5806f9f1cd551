import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  asTenant,
  migrate,
  openDatabase,
  serviceDatabase,
  tenantWallSql,
  type Database,
  type Migration,
  type MigrationStream,
} from '../../src/database';
import { crossSchemaAttempts, serviceLoginSql } from '../../src/testing';
import { createTestDatabase, testDatabaseUrl } from '../../src/testing/postgres';

/**
 * One login per service, as docs/operations.md ("Database roles") sets them up: each migrates its own schema and is
 * refused every table of another's and the other's tenant role. Two services here ("ledger", "vault"), on PostgreSQL
 * (a connection per login) and on PGlite (one connection, switched with SET SESSION AUTHORIZATION).
 */
const SCHEMAS = ['ledger', 'vault'] as const;
type Schema = (typeof SCHEMAS)[number];

function migrationsOf(schema: Schema): MigrationStream {
  const migrations: Migration[] = [
    {
      id: '001_tables',
      sql: `
        create table ${schema}.company (id uuid primary key, secret text not null);
        create table ${schema}.entry (id serial primary key, company_id uuid not null, body text not null);`,
    },
    {
      id: '002_tenant_wall',
      sql: tenantWallSql(schema, [
        { table: 'company', companyColumn: 'id' },
        { table: 'entry', companyColumn: 'company_id' },
      ]),
    },
  ];
  return { name: schema, migrations };
}

interface Stack {
  admin: Database;
  /** Each service's database, connected as its own login. */
  service: Record<Schema, Database>;
  /** Runs one statement as the login of `schema`. */
  asLogin(schema: Schema, sql: string): Promise<unknown>;
  /** Runs `work` with `service[schema]` connected as that login (PGlite switches its one connection). */
  withLogin<T>(schema: Schema, work: () => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

const suffix = randomBytes(4).toString('hex');
const loginOf = (schema: Schema) => `whistle_${schema}_${suffix}`;

const stacks: { name: string; open: () => Promise<Stack> }[] = [
  {
    name: 'PostgreSQL',
    open: async () => {
      const database = await createTestDatabase();
      const admin = await openDatabase({ databaseUrl: database.url });
      const name = new URL(database.url).pathname.slice(1);
      await admin.query(`revoke all on database ${name} from public`);
      for (const schema of SCHEMAS) {
        for (const sql of serviceLoginSql({ login: loginOf(schema), schema })) await admin.query(sql);
        await admin.query(`grant connect on database ${name} to ${loginOf(schema)}`);
      }
      const urlOf = (schema: Schema) => {
        const url = new URL(database.url);
        url.username = loginOf(schema);
        return url.toString();
      };
      const service = {
        ledger: await openDatabase({ databaseUrl: urlOf('ledger') }),
        vault: await openDatabase({ databaseUrl: urlOf('vault') }),
      };
      const clients = new Map<Schema, pg.Client>();
      for (const schema of SCHEMAS) {
        const client = new pg.Client({ connectionString: urlOf(schema) });
        await client.connect();
        clients.set(schema, client);
      }
      return {
        admin,
        service,
        asLogin: (schema, sql) => clients.get(schema)!.query(sql),
        withLogin: (_schema, work) => work(),
        async dispose() {
          for (const client of clients.values()) await client.end();
          for (const db of [...Object.values(service), admin]) await db.close();
          await database.drop();
          const cleanup = new pg.Client({ connectionString: testDatabaseUrl() });
          await cleanup.connect();
          try {
            for (const schema of SCHEMAS) await cleanup.query(`drop role if exists ${loginOf(schema)}`);
          } finally {
            await cleanup.end();
          }
        },
      };
    },
  },
  {
    name: 'PGlite',
    open: async () => {
      const admin = await openDatabase({});
      for (const schema of SCHEMAS)
        for (const sql of serviceLoginSql({ login: loginOf(schema), schema })) await admin.query(sql);
      // One connection: the login is switched with SET SESSION AUTHORIZATION around the work (a test's steps run
      // one at a time), before any tenant scope opens, as a connection would have logged in.
      const withLogin = async <T>(schema: Schema, work: () => Promise<T>): Promise<T> => {
        await admin.query(`set session authorization ${loginOf(schema)}`);
        try {
          return await work();
        } finally {
          await admin.query('reset session authorization');
        }
      };
      return {
        admin,
        service: { ledger: admin, vault: admin },
        withLogin,
        asLogin: (schema, sql) => withLogin(schema, () => admin.query(sql)),
        dispose: () => admin.close(),
      };
    },
  },
];

describe.each(stacks)('one login per service on $name', ({ open }) => {
  let stack: Stack;
  const company = randomUUID();

  beforeAll(async () => {
    stack = await open();
    for (const schema of SCHEMAS) {
      // Each service migrates its own schema as its own login, as at start-up.
      await stack.withLogin(schema, async () => {
        await migrate(stack.service[schema], schema, migrationsOf(schema));
        await stack.service[schema].query(`insert into ${schema}.company values ($1, 'key of ${schema}')`, [company]);
      });
    }
  }, 180_000);
  afterAll(() => stack?.dispose());

  test.each(SCHEMAS)(
    'when the %s login reads, writes or takes the role of another schema, then PostgreSQL refuses every attempt',
    async (schema) => {
      const others = SCHEMAS.filter((other) => other !== schema);
      const attempts = await crossSchemaAttempts(stack.admin, (sql) => stack.asLogin(schema, sql), others);
      expect(attempts.length).toBeGreaterThan(8);
      expect(attempts.filter((attempt) => !attempt.refused)).toEqual([]);
    },
  );

  test.each(SCHEMAS)(
    'when the %s service works in a tenant scope, then it reaches its own schema through its own tenant role',
    async (schema) => {
      const db = serviceDatabase(stack.service[schema], schema);
      const other = SCHEMAS.find((candidate) => candidate !== schema)!;
      await stack.withLogin(schema, async () => {
        const seen = await asTenant(company, () => db.query(`select secret from ${schema}.company`));
        expect(seen.rows).toEqual([{ secret: `key of ${schema}` }]);
        // Its login, in its own tenant scope, still has no way into the other schema.
        await expect(asTenant(company, () => db.query(`select secret from ${other}.company`))).rejects.toMatchObject({
          code: '42501',
        });
      });
    },
  );
});

/**
 * The hand-over block of docs/operations.md ("Upgrading from the shared role"), for `schema` and `login`: what an
 * operator runs when one login ran every service.
 */
function handOverSql(schema: string, login: string): string {
  const docs = readFileSync(path.join(__dirname, '../../../../docs/operations.md'), 'utf8');
  const marked = docs.slice(docs.indexOf('<!-- tested: hand-over'));
  const block = /```sql\n([\s\S]*?)```/.exec(marked)?.[1];
  if (!block) throw new Error('docs/operations.md has no hand-over block');
  return block.replaceAll('whistle_auth', login).replace(/\bauth\b/g, schema);
}

describe.each(stacks)('one login for every service, handed over to a login per service, on $name', ({ open }) => {
  let stack: Stack;
  const company = randomUUID();

  beforeAll(async () => {
    stack = await open();
    // What a database looks like after the releases before per-service roles ran with one login: both schemas
    // owned by it (here the administrator), with their rows.
    for (const schema of SCHEMAS) {
      await stack.admin.query(`alter schema ${schema} owner to current_user`);
      await migrate(stack.admin, schema, migrationsOf(schema));
      await stack.admin.query(`insert into ${schema}.company values ($1, 'key of ${schema}')`, [company]);
      await stack.admin.query(`insert into ${schema}.entry (company_id, body) values ($1, 'entry')`, [company]);
      await stack.admin.query(handOverSql(schema, loginOf(schema)));
    }
  }, 180_000);
  afterAll(() => stack?.dispose());

  test.each(SCHEMAS)(
    'when the %s login has its schema handed over, then it owns all of it and nothing else',
    async (schema) => {
      const { rows } = await stack.admin.query<{ object: string; owner: string }>(
        `select c.relname as object, pg_get_userbyid(c.relowner) as owner
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind in ('r', 'S')
       union all select nspname, pg_get_userbyid(nspowner) from pg_namespace where nspname = $1`,
        [schema],
      );
      expect(rows.length).toBeGreaterThan(3);
      expect(rows.filter((row) => row.owner !== loginOf(schema))).toEqual([]);
      const others = SCHEMAS.filter((other) => other !== schema);
      const attempts = await crossSchemaAttempts(stack.admin, (sql) => stack.asLogin(schema, sql), others);
      expect(attempts.filter((attempt) => !attempt.refused)).toEqual([]);
      // The service goes on as its own login: migrations (none pending), its rows, a new row through its sequence.
      await stack.withLogin(schema, async () => {
        await migrate(stack.service[schema], schema, migrationsOf(schema));
        const db = serviceDatabase(stack.service[schema], schema);
        await asTenant(company, () =>
          db.query(`insert into ${schema}.entry (company_id, body) values ($1, 'more')`, [company]),
        );
        const seen = await asTenant(company, () => db.query(`select body from ${schema}.entry order by id`));
        expect(seen.rows).toEqual([{ body: 'entry' }, { body: 'more' }]);
      });
    },
  );
});
