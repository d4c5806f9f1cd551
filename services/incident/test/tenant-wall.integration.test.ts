import { randomUUID } from 'node:crypto';
import { deriveDiscloserAuthToken } from '@whistle/crypto';
import { asTenant, currentTenant, type Database, type Queryable, serviceDatabase } from '@whistle/service-kit';
import {
  createTestDependencies,
  tablesOutsideTenantWall,
  testStacks,
  type TestDependencies,
} from '@whistle/service-kit/testing';
import {
  announceStaff,
  call,
  fileReport,
  getJson,
  prepareProducer,
  reportFor,
  retrievalUrl,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/**
 * The tenant wall on the incident schema (docs/security.md, "Tenant isolation"; issue 11 item 5): every table of
 * company data has its policy; a query that forgets its company condition, run in a company's scope, gets that
 * company's rows only; the requests that act for a token run in its company's scope, the public ones as the service.
 */

/** Tables with a company_id or incident_id column that hold no company's data, each with its reason. */
const EXEMPT = [
  // Every company's events waiting for the relay, which reads them all as the service: ids, never content.
  'outbox',
];

/** The tables open to the tenant role: the service's own bookkeeping, none of it a company's data. */
const OPEN = [
  'inbox', // event ids each consumer processed
  'outbox', // see EXEMPT
  'proof_of_work_spent', // ids of spent report challenges and hashes of idempotency keys, before any token
  'rate_limit_counter', // HMACs of client addresses and companies asked for, before any token
  'schema_migration', // migration ids
  'schema_repeatable', // names and checksums of the function and trigger files applied
  'token_revocation', // logged-out token ids, checked before a request's scope opens
  'user_session_revocation', // user ids whose older tokens are refused, checked likewise
];

interface Statement {
  sql: string;
  tenant: string | undefined;
}

/** The service's database, noting the tenant scope each statement (alone or in a transaction) was run in. */
function recordingScopes(db: Database, statements: Statement[]): Database {
  const noting = (target: Queryable): Queryable['query'] =>
    ((sql, params, options) => {
      statements.push({ sql, tenant: currentTenant() });
      return target.query(sql, params, options);
    }) as Queryable['query'];
  return Object.create(db, {
    query: { value: noting(db) },
    transaction: {
      value: (work: (tx: Queryable) => Promise<unknown>) => db.transaction((tx) => work({ query: noting(tx) })),
    },
  }) as Database;
}

describe.each(testStacks)('tenant wall of the incident service on %s', (stack) => {
  let test$: TestDependencies;
  let db: Database;
  let incident: RunningIncident;
  const statements: Statement[] = [];
  const companies = {} as Record<
    'A' | 'B',
    { company: SeededCompany; admin: StaffMember; caseId: string; session: string }
  >;
  const long = '3600000';

  /** A report of `company` filed as the form does (with its Idempotency-Key) and opened by its discloser. */
  async function reportAndOpen(company: SeededCompany) {
    const filed = await reportFor(company, { description: 'Invoices without delivery' });
    const created = await fileReport(incident.baseUrl, filed.body, { 'Idempotency-Key': randomUUID() });
    const authToken = await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase);
    const opened = await getJson(
      retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id),
      authToken,
    );
    return { caseId: created.uuid, session: ((await opened.json()) as { token: string }).token };
  }

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    db = serviceDatabase(test$.deps.db, 'incident');
    await prepareProducer(test$.deps);
    // The jobs wait an hour: the statements each test notes are the requests' alone.
    incident = await startIncident(
      { ...test$.deps, db: recordingScopes(db, statements) },
      {
        DEADLINE_SCAN_INTERVAL_MS: long,
        RETENTION_SCAN_INTERVAL_MS: long,
        REPORTING_FOLD_INTERVAL_MS: long,
      },
    );
    for (const key of ['A', 'B'] as const) {
      const company = await seedCompany(test$.deps);
      const admin = await announceStaff(test$.deps, company, `Admin ${key}`, ['ADMIN']);
      const { caseId, session } = await reportAndOpen(company);
      companies[key] = { company, admin, caseId, session };
      const message = await call(incident.baseUrl, 'POST', '/api/incident/message', {
        token: session,
        body: { incident_uuid: caseId, content: 'v1.discloser-message' },
      });
      expect(message.status).toBe(201);
      const note = await call(incident.baseUrl, 'POST', '/api/incident/note', {
        token: await admin.token(),
        body: { incident_uuid: caseId, content: 'v1.staff-note' },
      });
      expect(note.status).toBe(201);
    }
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  test('when the schema is migrated, then every table of company data is behind the wall and the open ones hold none', async () => {
    expect(await tablesOutsideTenantWall(db, 'incident', EXEMPT)).toEqual([]);
    const { rows } = await db.query<{ table: string }>(
      `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'incident' and c.relkind = 'r' and not c.relrowsecurity order by 1`,
    );
    expect(rows.map((row) => row.table)).toEqual(OPEN);
  });

  test('when a query forgets its company condition in company A’s scope, then it gets A’s rows and nothing of B’s', async () => {
    const { A, B } = companies;
    const incidents = await asTenant(A.company.companyId, () =>
      db.query<{ id: string }>('select id from incident.incident'),
    );
    expect(incidents.rows).toEqual([{ id: A.caseId }]);
    const messages = await asTenant(A.company.companyId, () =>
      db.query<{ incident_id: string; content: string }>('select * from incident.message'),
    );
    expect(messages.rows.map((row) => [row.incident_id, row.content])).toEqual([[A.caseId, 'v1.discloser-message']]);

    // Each table of company data, read without a condition: the service sees both companies, A's scope only A.
    const owners = new Map([
      [A.company.companyId, 'A'],
      [A.caseId, 'A'],
      [B.company.companyId, 'B'],
      [B.caseId, 'B'],
    ]);
    const ownersIn = async (sql: string, tenant?: string) => {
      const read = () => db.query<{ owner: string }>(sql);
      const { rows } = tenant === undefined ? await read() : await asTenant(tenant, read);
      return [...new Set(rows.map((row) => owners.get(row.owner) ?? row.owner))].sort();
    };
    const reads = {
      company: 'id',
      category: 'company_id',
      location: 'company_id',
      staff_member: 'company_id',
      incident: 'company_id',
      incident_category: 'incident_id',
      incident_field: 'incident_id',
      message: 'company_id',
      note: 'company_id',
      report_request: 'company_id',
      reporting_delta: 'company_id',
    };
    for (const [table, column] of Object.entries(reads)) {
      const sql = `select ${column}::text as owner from incident.${table}`;
      expect({ table, owners: await ownersIn(sql) }).toEqual({ table, owners: ['A', 'B'] });
      expect({ table, owners: await ownersIn(sql, A.company.companyId) }).toEqual({ table, owners: ['A'] });
    }
  });

  test('when company A’s scope writes into company B’s data, then the wall refuses it and changes nothing', async () => {
    const { A, B } = companies;
    const asA = <T>(work: () => Promise<T>) => asTenant(A.company.companyId, work);
    await expect(
      asA(() =>
        db.query(
          `insert into incident.note (id, incident_id, company_id, content, author_user_id, author_name)
           values ($1, $2, $3, 'v1.planted', $4, 'Mallory')`,
          [randomUUID(), B.caseId, B.company.companyId, A.admin.userId],
        ),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      asA(() =>
        db.query(
          `insert into incident.incident_field (incident_id, name, value, position) values ($1, 'x', 'v1.x', 9)`,
          [B.caseId],
        ),
      ),
    ).rejects.toThrow(/row-level security/);
    const closed = await asA(() =>
      db.query(`update incident.incident set status = 'CLOSED' where id = $1`, [B.caseId]),
    );
    expect(closed.rowCount).toBe(0);
    const { rows } = await db.query('select status from incident.incident where id = $1', [B.caseId]);
    expect(rows).toEqual([{ status: 'NEW' }]);
  });

  describe('the requests', () => {
    /** The scopes (a company key, or 'service') the statements on `table` ran in while `work` ran. */
    async function scopesOf(table: string, work: () => Promise<void>): Promise<string[]> {
      statements.length = 0;
      await work();
      const names = new Map(Object.entries(companies).map(([key, { company }]) => [company.companyId, key]));
      const scopes = statements
        .filter((statement) => statement.sql.includes(`incident.${table}`))
        .map((statement) => (statement.tenant === undefined ? 'service' : (names.get(statement.tenant) ?? 'other')));
      return [...new Set(scopes)];
    }

    test('when staff of company A call the case routes, then they run in A’s scope and see only A’s cases', async () => {
      const { A, B } = companies;
      const token = await A.admin.token();
      expect(
        await scopesOf('incident', async () => {
          const list = await call(incident.baseUrl, 'GET', '/api/incident/?page_size=100', { token });
          expect(list.status).toBe(200);
          expect(list.body.results.map((row: { uuid: string }) => row.uuid)).toEqual([A.caseId]);
          expect((await call(incident.baseUrl, 'GET', `/api/incident/${A.caseId}`, { token })).status).toBe(200);
          expect((await call(incident.baseUrl, 'GET', `/api/incident/${B.caseId}`, { token })).status).toBe(404);
        }),
      ).toEqual(['A']);
      expect(
        await scopesOf('company', async () => {
          const policy = await call(incident.baseUrl, 'GET', '/api/incident/retention', { token });
          expect(policy.status).toBe(200);
        }),
      ).toEqual(['A']);
      // The token is checked before the scope opens: revocations are every company's.
      expect(
        await scopesOf('token_revocation', async () => {
          await call(incident.baseUrl, 'GET', '/api/incident/?page_size=1', { token });
        }),
      ).toEqual(['service']);
    });

    test('when a discloser reads their case’s thread with their session, then it runs in the case’s company’s scope', async () => {
      const { A } = companies;
      expect(
        await scopesOf('message', async () => {
          const thread = await call(incident.baseUrl, 'GET', `/api/incident/${A.caseId}/message`, { token: A.session });
          expect(thread.status).toBe(200);
          expect(thread.body).toHaveLength(1);
        }),
      ).toEqual(['A']);
      expect(
        await scopesOf('file', async () => {
          const files = await call(incident.baseUrl, 'GET', `/api/incident/${A.caseId}/file`, { token: A.session });
          expect(files.status).toBe(200);
        }),
      ).toEqual(['A']);
    });

    test('when a discloser reports or opens a report with its secret code, then it runs as the service, before any token', async () => {
      const { B } = companies;
      expect(await scopesOf('incident', async () => void (await reportAndOpen(B.company)))).toEqual(['service']);
    });
  });
});
