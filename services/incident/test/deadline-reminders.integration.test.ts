/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { DUE_SOON_DAYS, type EventEnvelope } from '@whistle/contracts';
import { encryptContent } from '@whistle/crypto';
import { openDatabase, openEventBus, type EventBus } from '@whistle/service-kit';
import {
  createRecordingLogger,
  createTcpProxy,
  createTestDependencies,
  deleteRabbitTopology,
  testAmqpUrl,
  testDatabaseUrl,
  testStacks,
  uniqueTestName,
  waitFor,
  type RecordingLogger,
  type TcpProxy,
  type TestDependencies,
  type TestStack,
} from '@whistle/service-kit/testing';
import type { ClockTimes } from '../src/domain/cases/legal-clocks';
import { planReminders } from '../src/domain/deadlines/deadline-reminders';
import type { IncidentDependencies } from '../src/service';
import {
  announceStaff,
  call,
  fileReport,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/** Scans only when a test asks (runOnce), besides the one every start makes. */
const quiet = { DEADLINE_SCAN_INTERVAL_MS: '3600000' };

interface OtherProcess {
  deps: IncidentDependencies & { logger: RecordingLogger };
  proxy?: TcpProxy;
  close(): Promise<void>;
}

/**
 * What another replica (or the same one after a restart) of the incident service has of its own: a
 * connection pool to the same PostgreSQL database (through a cuttable proxy if asked) and its own bus; on
 * PGlite, the one embedded database of the process and a bus of its own.
 */
async function otherProcess(stack: TestStack, shared: IncidentDependencies, { viaProxy = false } = {}) {
  const logger = createRecordingLogger();
  const closers: (() => Promise<void>)[] = [];
  let db = shared.db;
  let bus: EventBus;
  let proxy: TcpProxy | undefined;
  if (stack === 'postgres+rabbitmq') {
    const { rows } = await shared.db.query<{ name: string }>('select current_database() as name');
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${rows[0]!.name}`;
    if (viaProxy) {
      proxy = await createTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = proxy.address.host;
      url.port = String(proxy.address.port);
      closers.push(() => proxy!.close());
    }
    db = await openDatabase({ databaseUrl: url.toString() });
    closers.push(() => db.close());
    const exchange = uniqueTestName('whistle.test');
    bus = await openEventBus({ amqpUrl: testAmqpUrl(), exchange, logger });
    closers.push(() => deleteRabbitTopology({ exchanges: [exchange], consumers: ['incident'] }));
  } else {
    bus = await openEventBus({ logger });
  }
  closers.push(() => bus.close());
  return {
    deps: { logger, db, bus },
    proxy,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  } satisfies OtherProcess;
}

interface Reminder {
  payload: Record<string, unknown>;
  actor: unknown;
}

describe.each(testStacks)('deadline reminders on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let admin: StaffMember;
  let handler: StaffMember;
  const published: EventEnvelope[] = [];
  const others: OtherProcess[] = [];
  const running: RunningIncident[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'deadline-test-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'deadline-test-observer',
      events: ['incident.deadline'],
      handle: async (event) => void published.push(event),
    });
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps, quiet);
    running.push(incident);
    company = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
  });
  afterAll(async () => {
    for (const each of running) await each.close();
    for (const other of others) await other.close();
    await test$?.dispose();
  });

  async function report(): Promise<string> {
    return (await fileReport(incident.baseUrl, (await reportFor(company)).body)).uuid;
  }

  const update = async (id: string, body: Record<string, unknown>) => {
    const answer = await call(incident.baseUrl, 'PUT', `/api/incident/${id}/`, { token: await admin.token(), body });
    expect(answer.status).toBe(200);
  };

  /** Moves a clock's due time, relative to the database's now (e.g. '1 day', '-1 hour'), as if time had passed. */
  const setDue = (ids: string | string[], clock: 'acknowledgement' | 'feedback' | 'resolution', fromNow: string) =>
    test$.deps.db.query(
      `update incident.incident set ${clock}_due_at = now() + $2::interval where id = any($1::uuid[])`,
      [[ids].flat(), fromNow],
    );

  const dueAtOf = async (id: string, clock: string) => {
    const { rows } = await test$.deps.db.query<{ due: Date }>(
      `select ${clock}_due_at as due from incident.incident where id = $1`,
      [id],
    );
    return rows[0]!.due.toISOString();
  };

  /** The deadline events written for a case, in order: the outbox is what every replica publishes from. */
  const remindersOf = async (id: string): Promise<Reminder[]> =>
    (
      await test$.deps.db.query<Reminder>(
        `select payload, actor from incident.outbox
          where name = 'incident.deadline' and payload->>'incident_id' = $1 order by position`,
        [id],
      )
    ).rows;
  const statesOf = async (id: string) =>
    (await remindersOf(id)).map(({ payload }) => `${String(payload.clock)} ${String(payload.state)}`);

  test('when a report comes in, then the scheduler first looks at it when its first clock enters the due-soon window, as it would plan it, and a scan before then leaves it alone', async () => {
    const id = await report();
    const caseRow = async () =>
      (
        await test$.deps.db.query<ClockTimes & { created_at: Date; deadline_check_at: Date }>(
          `select status, acknowledgement_due_at, feedback_due_at, resolution_due_at, acknowledged_at, feedback_at,
                  closed_at, created_at, deadline_check_at
             from incident.incident where id = $1`,
          [id],
        )
      ).rows[0]!;
    const stored = await caseRow();
    const planned = planReminders(stored, stored.created_at, DUE_SOON_DAYS * 24 * 60 * 60 * 1000);
    expect(planned.reminders).toEqual([]);
    expect(stored.deadline_check_at.toISOString()).toBe(planned.nextCheckAt?.toISOString());

    await incident.service.deadlines.runOnce();
    expect((await caseRow()).deadline_check_at).toEqual(stored.deadline_check_at);
    expect(await remindersOf(id)).toEqual([]);
  });

  test('when a case’s acknowledgement falls due in 1 day, then exactly one due_soon reminder goes out, to its assignees, by SYSTEM, with no content', async () => {
    const id = await report();
    await update(id, { assignee_uuids: [handler.userId] });
    await setDue(id, 'acknowledgement', '1 day');
    await incident.service.deadlines.runOnce();

    const reminders = await remindersOf(id);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.actor).toEqual({ type: 'SYSTEM' });
    expect(reminders[0]!.payload).toEqual({
      incident_id: id,
      display_report_number: expect.any(Number),
      clock: 'acknowledgement',
      state: 'due_soon',
      due_at: await dueAtOf(id, 'acknowledgement'),
      assignee_ids: [handler.userId],
    });
    const delivered = await waitFor(() => published.find((event) => event.payload.incident_id === id), {
      what: 'the reminder on the bus',
    });
    expect(delivered.actor).toEqual({ type: 'SYSTEM' });

    // A second run finds it already sent.
    await incident.service.deadlines.runOnce();
    expect(await statesOf(id)).toEqual(['acknowledgement due_soon']);
  });

  test('when a clock passes its due time, then one overdue reminder follows its due_soon one, and no run sends either again', async () => {
    const id = await report();
    // Due in a moment: due soon now, overdue once that moment has passed (the same due time for both).
    await setDue(id, 'acknowledgement', '1.5 seconds');
    await incident.service.deadlines.runOnce();
    expect(await statesOf(id)).toEqual(['acknowledgement due_soon']);
    await waitFor(
      async () => {
        await incident.service.deadlines.runOnce();
        return (await statesOf(id)).length > 1;
      },
      { intervalMs: 250, what: 'the overdue reminder' },
    );
    await incident.service.deadlines.runOnce();
    await incident.service.deadlines.runOnce();
    const reminders = await remindersOf(id);
    expect(reminders.map(({ payload }) => [payload.clock, payload.state])).toEqual([
      ['acknowledgement', 'due_soon'],
      ['acknowledgement', 'overdue'],
    ]);
    expect(reminders[1]!.payload.due_at).toBe(reminders[0]!.payload.due_at);
  });

  test('when a case has been acknowledged, then its acknowledgement clock reminds of nothing, even past due, while its running clocks still do, once', async () => {
    const id = await report();
    await update(id, { status: 'ACKNOWLEDGED' });
    await setDue(id, 'acknowledgement', '-1 day');
    await setDue(id, 'resolution', '-1 hour');
    await incident.service.deadlines.runOnce();
    expect(await statesOf(id)).toEqual(['resolution overdue']);

    // A change that leaves the clock as it was (a status move wakes the scheduler) repeats nothing.
    await update(id, { status: 'ASSESSMENT' });
    await incident.service.deadlines.runOnce();
    expect(await statesOf(id)).toEqual(['resolution overdue']);
  });

  test('when a case is closed, then no clock reminds; reopened with a new due time, it is reminded of again', async () => {
    const id = await report();
    await setDue(id, 'resolution', '-1 hour');
    await incident.service.deadlines.runOnce();
    expect(await statesOf(id)).toEqual(['resolution overdue']);

    const publicKey = (await reportFor(company)).credentials.incident.publicKey;
    await update(id, {
      status: 'CLOSED',
      outcome: 'spam',
      motivation: await encryptContent(publicKey, 'Spam', { kind: 'motivation' }),
      final_message: await encryptContent(publicKey, 'Closed as spam', { kind: 'message', from: 'staff' }),
    });
    await setDue(id, 'acknowledgement', '-1 day');
    await incident.service.deadlines.runOnce();
    expect(await statesOf(id)).toEqual(['resolution overdue']);

    // Reopening starts the clocks again: the never-acknowledged case is overdue, resolution has a new due time.
    await update(id, {
      status: 'REOPENED',
      motivation: await encryptContent(publicKey, 'Not spam after all', { kind: 'motivation' }),
    });
    await setDue(id, 'resolution', '1 day');
    await incident.service.deadlines.runOnce();
    const reminders = await remindersOf(id);
    expect(reminders.map(({ payload }) => `${String(payload.clock)} ${String(payload.state)}`).sort()).toEqual([
      'acknowledgement overdue',
      'resolution due_soon',
      'resolution overdue',
    ]);
    const resolutionDueTimes = reminders
      .filter(({ payload }) => payload.clock === 'resolution')
      .map(({ payload }) => payload.due_at);
    expect(new Set(resolutionDueTimes).size).toBe(2);
  });

  test('when two instances scan one database at the same time, then each reminder goes out exactly once', async () => {
    const other = await otherProcess(stack, test$.deps);
    others.push(other);
    const second = await startIncident(other.deps, { ...quiet, DEADLINE_SCAN_BATCH_SIZE: '2' });
    running.push(second);
    const first = await startIncident(test$.deps, { ...quiet, DEADLINE_SCAN_BATCH_SIZE: '2' }, { replica: true });
    running.push(first);
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await report());
    await setDue(ids, 'acknowledgement', '1 day');

    for (let round = 0; round < 3; round += 1)
      await Promise.all([first.service.deadlines.runOnce(), second.service.deadlines.runOnce()]);

    for (const id of ids) expect(await statesOf(id)).toEqual(['acknowledgement due_soon']);
    const { rows } = await test$.deps.db.query<{ count: string }>(
      `select count(*) as count from incident.deadline_reminder where incident_id = any($1::uuid[])`,
      [ids],
    );
    expect(Number(rows[0]!.count)).toBe(12);
  });

  test('when the service restarts on the same database, then nothing is sent again and what fell due meanwhile is caught up', async () => {
    const countAll = async () =>
      Number(
        (
          await test$.deps.db.query<{ count: string }>(
            `select count(*) as count from incident.outbox where name = 'incident.deadline'`,
          )
        ).rows[0]!.count,
      );
    const id = await report();
    await incident.service.deadlines.runOnce();
    const before = await countAll();

    await incident.close();
    running.splice(running.indexOf(incident), 1);
    await setDue(id, 'feedback', '1 day');
    const other = await otherProcess(stack, test$.deps);
    others.push(other);
    const restarted = await startIncident(other.deps, quiet);
    running.push(restarted);
    await restarted.service.deadlines.runOnce();

    expect(await countAll()).toBe(before + 1);
    expect(await statesOf(id)).toEqual(['feedback due_soon']);
  });
});

describe('deadline reminders through a database outage', () => {
  let test$: TestDependencies;
  let other: OtherProcess;
  let incident: RunningIncident;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    test$ = await createTestDependencies('postgres+rabbitmq', ['incident']);
    other = await otherProcess('postgres+rabbitmq', test$.deps, { viaProxy: true });
    await prepareProducer(other.deps);
    incident = await startIncident(other.deps, { DEADLINE_SCAN_INTERVAL_MS: '20' });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await incident?.close();
    await other?.close();
    await test$?.dispose();
  });

  test('when the database is unreachable, then the scheduler notes it once at debug level, ticks go on, and reminders follow once it is back', async () => {
    const company = await seedCompany(other.deps);
    const { uuid: id } = await fileReport(incident.baseUrl, (await reportFor(company)).body);
    const entries = other.deps.logger.entries;
    const failedAgain = () => entries.filter((entry) => entry.message === 'Deadline reminder scan failed again');

    await other.proxy!.cut();
    await waitFor(() => failedAgain().length >= 5, { what: 'several failed ticks' });
    // The outage is the database's to announce: the scheduler notes it once at debug level and warns nothing.
    const waits = entries.filter((entry) => entry.message === 'Deadline reminder scan waits for the database');
    expect(waits.map((entry) => entry.level)).toEqual(['debug']);
    expect(entries.filter((entry) => entry.level === 'warn' && entry.message.startsWith('Deadline reminder'))).toEqual(
      [],
    );
    expect(failedAgain().every((entry) => entry.level === 'debug' && entry.fields.err === undefined)).toBe(true);

    await test$.deps.db.query(
      `update incident.incident set acknowledgement_due_at = now() + interval '1 day' where id = $1`,
      [id],
    );
    await other.proxy!.restore();
    await waitFor(
      async () =>
        (
          await test$.deps.db.query(
            `select 1 from incident.outbox where name = 'incident.deadline' and payload->>'incident_id' = $1`,
            [id],
          )
        ).rows.length === 1,
      { what: 'the reminder once the database is back' },
    );
    // The scan commits the reminder before it returns and notes the recovery: the row can be seen first.
    await waitFor(() => entries.some((entry) => entry.message === 'Deadline reminders scan again'), {
      what: 'the recovery noted',
    });
    expect(unhandled).toEqual([]);
  });
});
