/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import { deriveDiscloserAuthToken, encryptContent, type ContentBinding } from '@whistle/crypto';
import { openDatabase, openEventBus, type Database, type EventBus } from '@whistle/service-kit';
import {
  createTestDependencies,
  deleteRabbitTopology,
  testAmqpUrl,
  testDatabaseUrl,
  testStacks,
  uniqueTestName,
  waitFor,
  type TestDependencies,
} from '@whistle/service-kit/testing';
import {
  announce,
  announceStaff,
  call,
  getJson,
  fileReport,
  postJson,
  prepareProducer,
  reportFor,
  retrievalUrl,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/** Runs only when a test asks (runOnce), besides the one every start makes. */
const quiet = { DEADLINE_SCAN_INTERVAL_MS: '3600000', RETENTION_SCAN_INTERVAL_MS: '3600000' };

interface OutboxEvent {
  name: string;
  company_id: string;
  payload: Record<string, unknown>;
  actor: unknown;
}

/** A closed case with something in every table about it, and what its discloser needs to come back. */
interface ClosedCase {
  id: string;
  retrievalId: string;
  authToken: string;
  sessionToken: string;
}

describe.each(testStacks)('retention on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let other: SeededCompany;
  let admin: StaffMember;
  let reviewer: StaffMember;
  let handler: StaffMember;
  let otherAdmin: StaffMember;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps, quiet);
    closers.push(() => incident.close());
    company = await seedCompany(test$.deps);
    other = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    reviewer = await announceStaff(test$.deps, company, 'Rita Reviewer', ['REVIEWER']);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
    otherAdmin = await announceStaff(test$.deps, other, 'Olga Admin', ['ADMIN']);
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await test$?.dispose();
  });

  const db = () => test$.deps.db;
  const as = async (member: StaffMember, method: string, path: string, body?: unknown) =>
    call(incident.baseUrl, method, path, { token: await member.token(), body });

  /** A report, opened by its discloser, who keeps the secret code's parts. */
  async function report(of: SeededCompany): Promise<ClosedCase> {
    const filed = await reportFor(of);
    const created = await fileReport(incident.baseUrl, filed.body, { 'idempotency-key': randomUUID() });
    const authToken = await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase);
    const opened = await getJson(retrievalUrl(incident.baseUrl, of.urlIdentifier, created.retrieval_id), authToken);
    expect(opened.status).toBe(200);
    const { token } = (await opened.json()) as { token: string };
    return { id: created.uuid, retrievalId: created.retrieval_id, authToken, sessionToken: token };
  }

  const encrypted = (text: string, binding: ContentBinding) => encryptContent(company.publicKey, text, binding);

  /**
   * A case of the company with a message from each side (read by the admin), a note, an assignee, an exclusion, a
   * file, a deadline reminder and a status history, closed by the admin; `closedAgo` then moves its closing time back.
   */
  async function closedCase(closedAgo?: string): Promise<ClosedCase> {
    const made = await report(company);
    const discloserMessage = await postJson(
      `${incident.baseUrl}/api/incident/message/`,
      { incident_uuid: made.id, content: await encrypted('hello', { kind: 'message', from: 'discloser' }) },
      { authorization: `Bearer ${made.sessionToken}` },
    );
    expect(discloserMessage.status).toBe(201);
    expect(
      (
        await as(admin, 'POST', '/api/incident/message/', {
          incident_uuid: made.id,
          content: await encrypted('hi', { kind: 'message', from: 'staff' }),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await as(admin, 'POST', '/api/incident/note/', {
          incident_uuid: made.id,
          content: await encrypted('note', { kind: 'note' }),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await as(admin, 'PUT', `/api/incident/${made.id}/`, {
          assignee_uuids: [handler.userId],
          excluded_user_uuids: [reviewer.userId],
        })
      ).status,
    ).toBe(200);
    // Opened by staff: the session's opening is on record (case_view).
    expect((await as(admin, 'GET', `/api/incident/${made.id}`)).status).toBe(200);
    // Its thread read by staff: how far they read is on record (case_read).
    expect((await as(admin, 'GET', `/api/incident/${made.id}/message`)).status).toBe(200);
    // Linked to another case of the company (case_link, both ways).
    const sibling = await report(company);
    expect((await as(admin, 'POST', `/api/incident/${made.id}/link`, { incident_uuid: sibling.id })).status).toBe(200);
    await announceFile(made.id);
    await waitForRow('select 1 from incident.file where incident_id = $1', [made.id]);
    await db().query(
      `insert into incident.deadline_reminder (incident_id, company_id, clock, state, due_at)
       values ($1, $2, 'acknowledgement', 'due_soon', now())`,
      [made.id, company.companyId],
    );
    // The handler's per-case grant (its making is case-grants.integration.test.ts's): it goes with the case.
    await db().query(
      `insert into incident.case_grant (incident_id, user_id, company_id, key_id, fingerprint, wrapped_passphrase)
       values ($1, $2, $3, gen_random_uuid(), 'AAAA AAAA AAAA AAAA AAAA', 'v2.AA.AA.AA')`,
      [made.id, handler.userId, company.companyId],
    );
    expect(
      (
        await as(admin, 'PUT', `/api/incident/${made.id}/`, {
          status: 'CLOSED',
          outcome: 'unsubstantiated',
          motivation: await encrypted('No evidence', { kind: 'motivation' }),
          final_message: await encrypted('We found no evidence', { kind: 'message', from: 'staff' }),
        })
      ).status,
    ).toBe(200);
    if (closedAgo) await closedBefore(made.id, closedAgo);
    return made;
  }

  /** Moves a case's closing time back, as if that much time had passed since. */
  const closedBefore = (ids: string | string[], ago: string) =>
    db().query(`update incident.incident set closed_at = now() - $2::interval where id = any($1::uuid[])`, [
      [ids].flat(),
      ago,
    ]);

  /** Every table of the incident schema with a column naming a case, and how many of its rows name this one. */
  async function rowsAbout(id: string): Promise<Record<string, number>> {
    const { rows: tables } = await db().query<{ table_name: string }>(
      `select table_name from information_schema.columns
        where table_schema = 'incident' and column_name = 'incident_id' order by table_name`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name } of tables) {
      const { rows } = await db().query<{ count: string }>(
        `select count(*) as count from incident.${table_name} where incident_id = $1`,
        [id],
      );
      counts[table_name] = Number(rows[0]!.count);
    }
    const { rows } = await db().query<{ count: string }>(
      'select count(*) as count from incident.incident where id = $1',
      [id],
    );
    counts.incident = Number(rows[0]!.count);
    return counts;
  }

  const eventsOf = async (name: string, id: string) =>
    (
      await db().query<OutboxEvent>(
        `select name, company_id, payload, actor from incident.outbox
          where name = $1 and payload->>'incident_id' = $2 order by position`,
        [name, id],
      )
    ).rows;

  const waitForRow = (sql: string, params: unknown[]) =>
    waitFor(async () => (await db().query(sql, params)).rows.length > 0, { what: sql });

  /** The file service's announcement of a file of the case (the incident service keeps its metadata). */
  async function announceFile(incidentId: string): Promise<string> {
    const fileId = randomUUID();
    await announce(test$.deps, {
      name: 'incident.file.created',
      company_id: company.companyId,
      payload: {
        incident_id: incidentId,
        incident_file_id: fileId,
        incident_message_id: null,
        file_size: 3,
        mime_type: 'text/plain',
      },
    });
    return fileId;
  }

  const exists = async (id: string) => (await rowsAbout(id)).incident === 1;

  describe('the policy', () => {
    test('when an admin reads the policy of a company that never set one, then it is 12 months, with the warning days', async () => {
      const answer = await as(otherAdmin, 'GET', '/api/incident/retention');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ retention_months: 12, warning_days: 14 });
    });

    test('when a reviewer or a handler reads or sets the policy, then 403, even with a bad body, and nothing changes', async () => {
      for (const member of [reviewer, handler]) {
        expect((await as(member, 'GET', '/api/incident/retention')).status).toBe(403);
        expect((await as(member, 'PUT', '/api/incident/retention', { retention_months: 6 })).status).toBe(403);
        expect((await as(member, 'PUT', '/api/incident/retention', { retention_months: 0 })).status).toBe(403);
      }
      expect((await call(incident.baseUrl, 'GET', '/api/incident/retention')).status).toBe(401);
      expect((await as(admin, 'GET', '/api/incident/retention')).body.retention_months).toBe(12);
    });

    test('when the months are missing, not whole, or outside 1 to 120, then 400 names the field', async () => {
      for (const body of [
        {},
        { retention_months: 0 },
        { retention_months: 121 },
        { retention_months: 1.5 },
        { retention_months: '6' },
      ]) {
        const answer = await as(admin, 'PUT', '/api/incident/retention', body);
        expect(answer.status).toBe(400);
        expect(Object.keys(answer.body.errors)).toEqual(['retention_months']);
      }
      const extra = await as(admin, 'PUT', '/api/incident/retention', { retention_months: 6, purge: true });
      expect(extra.status).toBe(400);
    });

    test('when an admin changes the policy, then it is kept per company and announced by them, once per change', async () => {
      const set = await as(otherAdmin, 'PUT', '/api/incident/retention', { retention_months: 24 });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ retention_months: 24, warning_days: 14 });
      expect((await as(otherAdmin, 'PUT', '/api/incident/retention', { retention_months: 24 })).status).toBe(200);
      expect((await as(otherAdmin, 'GET', '/api/incident/retention')).body.retention_months).toBe(24);
      expect((await as(admin, 'GET', '/api/incident/retention')).body.retention_months).toBe(12);
      const { rows } = await db().query<OutboxEvent>(
        `select name, company_id, payload, actor from incident.outbox where name = 'company.retention_changed'
          and company_id = $1`,
        [other.companyId],
      );
      expect(rows).toEqual([
        {
          name: 'company.retention_changed',
          company_id: other.companyId,
          payload: { retention_months: 24 },
          actor: { type: 'STAFF', user_id: otherAdmin.userId },
        },
      ]);
    });
  });

  describe('deletion', () => {
    test('when the job runs, then exactly the expired closed cases go, with every row about them, and the others stay', async () => {
      const expired = await closedCase('13 months');
      const recent = await closedCase('11 months');
      const open = await report(company);
      await db().query(`update incident.incident set created_at = now() - interval '3 years' where id = $1`, [open.id]);
      // Closed long ago and reopened: its work goes on.
      const reopened = await closedCase('13 months');
      expect(
        (
          await as(admin, 'PUT', `/api/incident/${reopened.id}/`, {
            status: 'REOPENED',
            motivation: await encrypted('New facts', { kind: 'motivation' }),
          })
        ).status,
      ).toBe(200);
      // The other company keeps its cases 24 months (set above).
      const othersCase = await report(other);
      expect(
        (
          await as(otherAdmin, 'PUT', `/api/incident/${othersCase.id}/`, {
            status: 'CLOSED',
            outcome: 'spam',
            motivation: await encryptContent(other.publicKey, 'Spam', { kind: 'motivation' }),
            final_message: await encryptContent(other.publicKey, 'Closed as spam', { kind: 'message', from: 'staff' }),
          })
        ).status,
      ).toBe(200);
      await closedBefore(othersCase.id, '13 months');
      const before = await rowsAbout(expired.id);
      // The fixture put something in each table: the check below is not an empty one.
      expect(Object.entries(before).filter(([, count]) => count === 0)).toEqual([['retention_warning', 0]]);

      const { deleted } = await incident.service.retention.runOnce();

      expect(deleted).toBe(1);
      expect(Object.values(await rowsAbout(expired.id)).every((count) => count === 0)).toBe(true);
      for (const kept of [recent, open, reopened, othersCase]) expect(await exists(kept.id)).toBe(true);
      // A message from each side and the final message that closed it.
      expect(await rowsAbout(recent.id)).toMatchObject({ message: 3, note: 1, file: 1, assignee: 1, exclusion: 1 });

      const events = await eventsOf('incident.deleted', expired.id);
      expect(events).toEqual([
        {
          name: 'incident.deleted',
          company_id: company.companyId,
          payload: { incident_id: expired.id, display_report_number: expect.any(Number), reason: 'retention' },
          actor: { type: 'SYSTEM' },
        },
      ]);
      // A second run finds nothing more to delete.
      expect((await incident.service.retention.runOnce()).deleted).toBe(0);
      expect(await eventsOf('incident.deleted', expired.id)).toHaveLength(1);
    });

    test('when the discloser of a deleted case comes back, then the secret code answers like an unknown one, and the session opens nothing', async () => {
      const gone = await closedCase('2 years');
      await incident.service.retention.runOnce();
      expect(await exists(gone.id)).toBe(false);

      const answers = await Promise.all([
        getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, gone.retrievalId), gone.authToken),
        getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, 'f'.repeat(20)), gone.authToken),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([401, 401]);
      const [forGone, forUnknown] = await Promise.all(answers.map((answer) => answer.text()));
      expect(forGone).toBe(forUnknown);

      // The session token lives on for minutes: it finds an empty thread, and cannot write to it.
      const thread = await getJson(`${incident.baseUrl}/api/incident/${gone.id}/message`, gone.sessionToken);
      expect(await thread.json()).toEqual([]);
      const reply = await postJson(
        `${incident.baseUrl}/api/incident/message/`,
        { incident_uuid: gone.id, content: await encrypted('still there?', { kind: 'message', from: 'discloser' }) },
        { authorization: `Bearer ${gone.sessionToken}` },
      );
      expect(reply.status).toBe(404);
      expect((await as(admin, 'GET', `/api/incident/${gone.id}`)).status).toBe(404);
    });

    test('when a file is announced after its case was deleted, then no row of it is kept', async () => {
      const gone = await closedCase('2 years');
      await incident.service.retention.runOnce();
      const fileId = await announceFile(gone.id);
      // One consumer, in order on one queue: once a later announcement is kept, the first was handled.
      const marker = await announceFile((await report(company)).id);
      await waitForRow('select 1 from incident.file where id = $1', [marker]);
      expect((await db().query('select 1 from incident.file where id = $1', [fileId])).rows).toEqual([]);
    });

    test('when the policy is shortened, then cases it makes expire are deleted only after the warning period, and warned of', async () => {
      const third = await seedCompany(test$.deps);
      const thirdAdmin = await announceStaff(test$.deps, third, 'Tom Admin', ['ADMIN']);
      const made = await report(third);
      expect(
        (
          await call(incident.baseUrl, 'PUT', `/api/incident/${made.id}/`, {
            token: await thirdAdmin.token(),
            body: {
              status: 'CLOSED',
              outcome: 'spam',
              motivation: await encryptContent(third.publicKey, 'Spam', { kind: 'motivation' }),
              final_message: await encryptContent(third.publicKey, 'Closed as spam', {
                kind: 'message',
                from: 'staff',
              }),
            },
          })
        ).status,
      ).toBe(200);
      await closedBefore(made.id, '3 months');
      const set = await call(incident.baseUrl, 'PUT', '/api/incident/retention', {
        token: await thirdAdmin.token(),
        body: { retention_months: 1 },
      });
      expect(set.status).toBe(200);

      const { rows } = await db().query<{ in_days: number }>(
        `select extract(epoch from purge_at - now()) / 86400 as in_days from incident.incident where id = $1`,
        [made.id],
      );
      expect(Number(rows[0]!.in_days)).toBeGreaterThan(13.9);
      expect(Number(rows[0]!.in_days)).toBeLessThanOrEqual(14);
      await incident.service.retention.runOnce();
      expect(await exists(made.id)).toBe(true);
      expect(await eventsOf('incident.retention_due', made.id)).toHaveLength(1);

      // Saving the same policy again neither postpones nor repeats anything.
      await call(incident.baseUrl, 'PUT', '/api/incident/retention', {
        token: await thirdAdmin.token(),
        body: { retention_months: 1 },
      });
      await incident.service.retention.runOnce();
      expect(await eventsOf('incident.retention_due', made.id)).toHaveLength(1);
    });
  });

  describe('the warning', () => {
    test('when a closed case comes within the warning days of its deletion, then one warning goes out, by SYSTEM, with ids, number and date only', async () => {
      const soon = await closedCase();
      // Deleted in about a week: inside the 14 days.
      await db().query(
        `update incident.incident set closed_at = now() - interval '12 months' + interval '7 days' where id = $1`,
        [soon.id],
      );
      const later = await closedCase('6 months');
      const open = await report(company);

      const first = await incident.service.retention.runOnce();
      expect(first.warned).toBeGreaterThanOrEqual(1);
      const { rows } = await db().query<{ purge_at: Date }>('select purge_at from incident.incident where id = $1', [
        soon.id,
      ]);
      expect(await eventsOf('incident.retention_due', soon.id)).toEqual([
        {
          name: 'incident.retention_due',
          company_id: company.companyId,
          payload: {
            incident_id: soon.id,
            display_report_number: expect.any(Number),
            delete_at: rows[0]!.purge_at.toISOString(),
          },
          actor: { type: 'SYSTEM' },
        },
      ]);
      expect(await eventsOf('incident.retention_due', later.id)).toEqual([]);
      expect(await eventsOf('incident.retention_due', open.id)).toEqual([]);

      await incident.service.retention.runOnce();
      expect(await eventsOf('incident.retention_due', soon.id)).toHaveLength(1);
      expect(await exists(soon.id)).toBe(true);
    });

    test('when batches are full, then each warned case leaves the next batch (a run ends), and none is warned twice', async () => {
      const cases = [await closedCase(), await closedCase(), await closedCase()];
      await db().query(
        `update incident.incident set closed_at = now() - interval '12 months' + interval '3 days' where id = any($1::uuid[])`,
        [cases.map((each) => each.id)],
      );
      const oneAtATime = await startIncident(
        test$.deps,
        { ...quiet, RETENTION_SCAN_BATCH_SIZE: '1' },
        { replica: true },
      );
      closers.push(() => oneAtATime.close());
      expect((await oneAtATime.service.retention.runOnce()).warned).toBe(3);
      expect((await oneAtATime.service.retention.runOnce()).warned).toBe(0);
      for (const each of cases) expect(await eventsOf('incident.retention_due', each.id)).toHaveLength(1);
    });
  });

  if (stack === 'postgres+rabbitmq')
    test('when two instances run the job on one database at the same time, then each expired case is deleted once, with one event', async () => {
      const { rows } = await db().query<{ name: string }>('select current_database() as name');
      const url = new URL(testDatabaseUrl());
      url.pathname = `/${rows[0]!.name}`;
      const secondDb: Database = await openDatabase({ databaseUrl: url.toString() });
      const exchange = uniqueTestName('whistle.test');
      const secondBus: EventBus = await openEventBus({ amqpUrl: testAmqpUrl(), exchange, logger: test$.deps.logger });
      closers.push(async () => {
        await secondBus.close();
        await deleteRabbitTopology({ exchanges: [exchange], consumers: ['incident'] });
        await secondDb.close();
      });
      const batches = { ...quiet, RETENTION_SCAN_BATCH_SIZE: '2' };
      const second = await startIncident({ logger: test$.deps.logger, db: secondDb, bus: secondBus }, batches);
      closers.push(() => second.close());
      const first = await startIncident(test$.deps, batches, { replica: true });
      closers.push(() => first.close());

      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        ids.push((await fileReport(incident.baseUrl, (await reportFor(company)).body)).uuid);
      }

      for (const id of ids)
        await as(admin, 'PUT', `/api/incident/${id}/`, {
          status: 'CLOSED',
          outcome: 'spam',
          motivation: await encrypted('Spam', { kind: 'motivation' }),
          final_message: await encrypted('Closed as spam', { kind: 'message', from: 'staff' }),
        });
      await closedBefore(ids, '13 months');

      const results = await Promise.all([first.service.retention.runOnce(), second.service.retention.runOnce()]);

      expect(results.reduce((sum, result) => sum + result.deleted, 0)).toBe(ids.length);
      for (const id of ids) {
        expect(await exists(id)).toBe(false);
        expect(await eventsOf('incident.deleted', id)).toHaveLength(1);
      }
    });
});
