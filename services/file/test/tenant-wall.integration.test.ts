import { randomBytes, randomUUID } from 'node:crypto';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import { createCompanyCredentials, createIncidentCredentials } from '@whistle/crypto';
import { asTenant, currentTenant, type Database, type Queryable, serviceDatabase } from '@whistle/service-kit';
import {
  createTestDependencies,
  tablesOutsideTenantWall,
  testStacks,
  waitFor,
  type TestDependencies,
} from '@whistle/service-kit/testing';
import { FILE_SCHEMA } from '../src/data-access/migrations';
import {
  createInspectableStore,
  discloserTokens,
  encryptedUploadBody,
  incidentServiceEvents,
  messageAnnouncer,
  startFile,
  type InspectableStore,
  type RunningFile,
} from './support';

type Session = Awaited<ReturnType<ReturnType<typeof discloserTokens>['forNewIncident']>>;

/** A statement the service ran, and the tenant scope it ran in. */
interface Statement {
  sql: string;
  tenant: string | undefined;
}

/** The database as the service sees it, noting the tenant scope of every statement it runs. */
function observed(db: Database, statements: Statement[]): Database {
  const noted = (queryable: Queryable): Queryable => ({
    query: (sql, ...rest) => {
      statements.push({ sql, tenant: currentTenant() });
      return queryable.query(sql, ...rest);
    },
  });
  return new Proxy(db, {
    get(target, property) {
      if (property === 'query') return noted(target).query;
      if (property === 'transaction')
        return <T>(work: (tx: Queryable) => Promise<T>) => target.transaction((tx) => work(noted(tx)));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe.each(testStacks)('tenant wall of the file service on %s', (stack) => {
  let test$: TestDependencies;
  let store: InspectableStore;
  let file: RunningFile;
  let publicKey: string;
  let publish: Awaited<ReturnType<typeof incidentServiceEvents>>;
  let announceMessage: Awaited<ReturnType<typeof messageAnnouncer>>;
  const statements: Statement[] = [];
  const tokens = discloserTokens();

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['file']);
    store = await createInspectableStore(stack);
    publish = await incidentServiceEvents(test$);
    announceMessage = await messageAnnouncer(test$);
    file = await startFile(
      { ...test$.deps, db: observed(test$.deps.db, statements), objects: store.objects },
      tokens.publicKeyPem,
    );
    publicKey = (await createIncidentCredentials((await createCompanyCredentials()).credential.public_key)).incident
      .publicKey;
  });
  afterAll(async () => {
    await file?.close();
    await store?.dispose();
    await test$?.dispose();
  });

  const upload = async (session: Session) => {
    const { body } = await encryptedUploadBody(publicKey, session.incidentId, randomBytes(1_000));
    return fetch(`${file.baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: {
        'content-type': FILE_UPLOAD_CONTENT_TYPE,
        accept: 'application/json',
        authorization: `Bearer ${session.token}`,
      },
      body: JSON.stringify(body),
    });
  };
  const uploaded = async (session: Session): Promise<string> => {
    const response = await upload(session);
    expect(response.status).toBe(201);
    return ((await response.json()) as { uuid: string }).uuid;
  };

  /** A case of a new company with a file, a message, and a deleted case of the same company. */
  async function companyWithRows() {
    const session = await tokens.forNewIncident();
    await uploaded(session);
    const messageId = await announceMessage(session);
    await waitFor(
      async () =>
        (await test$.deps.db.query('select 1 from file.incident_message where id = $1', [messageId])).rows.length > 0,
      { what: 'incident.message.created handled' },
    );
    const deleted = await tokens.forNewIncident(session.companyId);
    const { id } = await publish({
      name: 'incident.deleted',
      company_id: session.companyId,
      payload: { incident_id: deleted.incidentId, display_report_number: 1, reason: 'retention' },
      actor: { type: 'SYSTEM' },
    });
    await waitFor(
      async () => (await test$.deps.db.query('select 1 from file.inbox where event_id = $1', [id])).rows.length > 0,
      { what: 'incident.deleted handled' },
    );
    return session;
  }

  test('when the schema is migrated, then every table holding a company’s rows is behind the tenant wall', async () => {
    // outbox: the relay publishes every company's events from it, outside any scope; its rows are ids only.
    expect(await tablesOutsideTenantWall(test$.deps.db, FILE_SCHEMA, ['outbox'])).toEqual([]);
  });

  test('when a query forgets its company condition in a company’s tenant scope, then it sees only that company’s files, messages and deleted cases', async () => {
    const first = await companyWithRows();
    const second = await companyWithRows();
    const tables = ['file.file', 'file.incident_message', 'file.deleted_incident'];
    for (const table of tables) {
      const all = await test$.deps.db.query<{ company_id: string }>(`select distinct company_id from ${table}`);
      expect(all.rows.map((row) => row.company_id)).toEqual(
        expect.arrayContaining([first.companyId, second.companyId]),
      );
      const seen = await asTenant(first.companyId, () =>
        serviceDatabase(test$.deps.db, FILE_SCHEMA).query<{ company_id: string }>(`select company_id from ${table}`),
      );
      expect({ table, rows: seen.rows }).toEqual({ table, rows: [{ company_id: first.companyId }] });
    }
  });

  test('when a verified caller uploads, reads a file’s metadata and downloads it, then every statement on the case runs in its company’s scope', async () => {
    const session = await tokens.forNewIncident();
    statements.length = 0;
    const fileId = await uploaded(session);
    for (const accept of ['application/json', 'application/octet-stream']) {
      const response = await fetch(`${file.baseUrl}/api/incident/file/${fileId}`, {
        headers: { accept, authorization: `Bearer ${session.token}` },
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const onTheCase = statements.filter((statement) =>
      /\bfile\.(file|deleted_incident|incident_message)\b|pg_advisory_xact_lock/.test(statement.sql),
    );
    // usage, lock, deleted check, usage, insert (upload); find (metadata); find (download).
    expect(onTheCase.length).toBeGreaterThanOrEqual(7);
    expect(onTheCase.filter((statement) => statement.tenant !== session.companyId)).toEqual([]);
  });

  test('when a statement of an upload forgets its company, then another company’s row with the same case id does not reach it', async () => {
    // The deleted-case check asks by case id alone; a mark of another company must not refuse this upload.
    const session = await tokens.forNewIncident();
    await test$.deps.db.query('insert into file.deleted_incident (incident_id, company_id) values ($1, $2)', [
      session.incidentId,
      randomUUID(),
    ]);
    await uploaded(session);
  });
});
