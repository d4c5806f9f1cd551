import {
  ACKNOWLEDGEMENT_DAYS,
  FEEDBACK_MONTHS,
  reportingResponseSchema,
  type ReportingResponse,
} from '@whistle/contracts';
import { asTenant, type Queryable, serviceDatabase } from '@whistle/service-kit';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { reportingRepository } from '../src/data-access/reporting.repository';
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

const PERIOD = 'from=2025-01-01&to=2025-06-30';

/** A plan node of EXPLAIN (FORMAT JSON), as far as the test reads it. */
interface PlanNode {
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * What a case of the seed becomes, set by hand after a real report was made: when it was received, how it
 * came, where it stands, and when its clocks stopped (days after receipt). Due times follow the service's
 * rules (domain/cases/legal-clocks.ts): acknowledgement ACKNOWLEDGEMENT_DAYS (7) after receipt, feedback
 * FEEDBACK_MONTHS (3) after acknowledgement (or after the acknowledgement's due time); the days below are chosen
 * around those.
 */
interface HandSet {
  created: string;
  channel?: 'online' | 'telephone' | 'internal';
  status?: string;
  outcome?: string;
  location?: 'office' | 'closed';
  labels?: ('fraud' | 'bribery' | 'retired')[];
  ackDays?: number;
  feedbackDays?: number;
  closeDays?: number;
}

describe.each(testStacks)('reporting on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let companyA: SeededCompany;
  let companyB: SeededCompany;
  let adminA: StaffMember;
  let secondAdminA: StaffMember;
  let reviewerA: StaffMember;
  let handlerA: StaffMember;
  let adminB: StaffMember;

  async function makeCase(company: SeededCompany, set?: HandSet): Promise<string> {
    const { uuid } = await fileReport(incident.baseUrl, (await reportFor(company)).body);
    if (!set) return uuid;
    const day = (days: number | undefined) => (days === undefined ? null : days);
    await test$.deps.db.query(
      `update incident.incident set
         created_at = $2::timestamptz,
         report_channel = $3,
         status = $4,
         outcome = $5,
         location_id = $6,
         acknowledged_at = $2::timestamptz + make_interval(days => $7::int),
         feedback_at = $2::timestamptz + make_interval(days => $8::int),
         closed_at = $2::timestamptz + make_interval(days => $9::int),
         acknowledgement_due_at = $2::timestamptz + make_interval(days => $10::int),
         feedback_due_at = coalesce($2::timestamptz + make_interval(days => $7::int),
                                    $2::timestamptz + make_interval(days => $10::int))
                           + make_interval(months => $11::int),
         resolution_due_at = $2::timestamptz + interval '14 days'
       where id = $1`,
      [
        uuid,
        set.created,
        set.channel ?? 'online',
        set.status ?? 'NEW',
        set.outcome ?? null,
        company.locations[set.location ?? 'office'],
        day(set.ackDays),
        day(set.feedbackDays),
        day(set.closeDays),
        ACKNOWLEDGEMENT_DAYS,
        FEEDBACK_MONTHS,
      ],
    );
    if (set.labels) {
      await test$.deps.db.query('delete from incident.incident_category where incident_id = $1', [uuid]);
      await test$.deps.db.query(
        'insert into incident.incident_category (incident_id, category_id) select $1, unnest($2::uuid[])',
        [uuid, set.labels.map((label) => company.categories[label])],
      );
    }
    return uuid;
  }

  const report = async (member: StaffMember, query = PERIOD) =>
    call(incident.baseUrl, 'GET', `/api/incident/reporting?${query}`, { token: await member.token() });

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    companyA = await seedCompany(test$.deps);
    companyB = await seedCompany(test$.deps);
    adminA = await announceStaff(test$.deps, companyA, 'Ada Admin', ['ADMIN']);
    secondAdminA = await announceStaff(test$.deps, companyA, 'Abe Admin', ['ADMIN']);
    reviewerA = await announceStaff(test$.deps, companyA, 'Rita Reviewer', ['REVIEWER']);
    handlerA = await announceStaff(test$.deps, companyA, 'Hal Handler', ['HANDLER']);
    adminB = await announceStaff(test$.deps, companyB, 'Bea Admin', ['ADMIN']);

    // Company A, inside the period (2025-01-01 to 2025-06-30, UTC days, both included).
    await makeCase(companyA, {
      created: '2025-01-10T09:00:00Z',
      status: 'CLOSED',
      outcome: 'substantiated',
      labels: ['fraud', 'bribery'],
      ackDays: 2,
      feedbackDays: 30,
      closeDays: 40,
    });
    await makeCase(companyA, {
      created: '2025-01-20T09:00:00Z',
      channel: 'telephone',
      status: 'INVESTIGATION',
      labels: ['fraud'],
      ackDays: 10,
    });
    await makeCase(companyA, {
      created: '2025-03-05T09:00:00Z',
      channel: 'internal',
      location: 'closed',
      labels: ['retired'],
    });
    await makeCase(companyA, {
      created: '2025-03-15T09:00:00Z',
      status: 'CLOSED',
      outcome: 'spam',
      labels: ['bribery'],
      closeDays: 1,
    });
    await makeCase(companyA, {
      created: '2025-06-30T23:59:59Z',
      status: 'ACKNOWLEDGED',
      labels: ['fraud'],
      ackDays: 4,
      feedbackDays: 100,
    });
    // Just outside the period, on either side, and one received today.
    await makeCase(companyA, { created: '2024-12-31T23:59:59Z' });
    await makeCase(companyA, { created: '2025-07-01T00:00:00Z' });
    await makeCase(companyA);
    // One case the first admin is excluded from (conflict of interest): counted for the second admin only.
    const excluded = await makeCase(companyA, { created: '2025-02-01T12:00:00Z', labels: ['fraud'] });
    await test$.deps.db.query('insert into incident.exclusion (incident_id, user_id, company_id) values ($1, $2, $3)', [
      excluded,
      adminA.userId,
      companyA.companyId,
    ]);
    // Company B, the same period: never in A's figures.
    await makeCase(companyB, { created: '2025-01-15T09:00:00Z', channel: 'telephone', labels: ['fraud'] });
    await makeCase(companyB, { created: '2025-05-15T09:00:00Z', status: 'CLOSED', outcome: 'spam', closeDays: 3 });
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  test('when an admin asks for a period, then each count matches the cases received in it, month by month and channel by channel', async () => {
    const answer = await report(adminA);
    expect(answer.status).toBe(200);
    const body = reportingResponseSchema.parse(answer.body);
    expect(body.period).toEqual({ from: '2025-01-01', to: '2025-06-30' });
    expect(body.total).toBe(5);
    expect(body.by_month).toEqual([
      { month: '2025-01', channels: { online: 1, telephone: 1, internal: 0 } },
      { month: '2025-02', channels: { online: 0, telephone: 0, internal: 0 } },
      { month: '2025-03', channels: { online: 1, telephone: 0, internal: 1 } },
      { month: '2025-04', channels: { online: 0, telephone: 0, internal: 0 } },
      { month: '2025-05', channels: { online: 0, telephone: 0, internal: 0 } },
      { month: '2025-06', channels: { online: 1, telephone: 0, internal: 0 } },
    ]);
    // A sub-label counts for its parent, and a case carrying both counts once.
    expect(body.by_category).toEqual([
      { uuid: companyA.categories.fraud, name: 'Fraud', count: 4 },
      { uuid: companyA.categories.retired, name: 'Retired', count: 1 },
    ]);
    expect(body.by_location).toEqual([
      { uuid: companyA.locations.office, name: 'Head office', count: 4 },
      { uuid: companyA.locations.closed, name: 'Closed site', count: 1 },
    ]);
    expect(body.by_status).toEqual([
      { status: 'NEW', count: 1 },
      { status: 'ACKNOWLEDGED', count: 1 },
      { status: 'ASSESSMENT', count: 0 },
      { status: 'INVESTIGATION', count: 1 },
      { status: 'CLOSED', count: 2 },
      { status: 'REOPENED', count: 0 },
    ]);
    expect(body.by_outcome.filter((row) => row.count > 0)).toEqual([
      { outcome: 'substantiated', count: 1 },
      { outcome: 'spam', count: 1 },
    ]);
    expect(body.by_outcome).toHaveLength(7);
  });

  test('when times are known, then the medians are over the cases that have them and the directive shares over stopped or run-out clocks', async () => {
    const body = (await report(adminA)).body as ReportingResponse;
    expect(body.times).toEqual({
      // Acknowledged after 2, 10 and 4 days.
      to_acknowledge: { median_days: 4, cases: 3 },
      // Feedback after 30 and 100 days: the median of two is their mean.
      to_first_feedback: { median_days: 65, cases: 2 },
      // Closed after 40 days and after 1 day (spam).
      to_close: { median_days: 20.5, cases: 2 },
    });
    expect(body.directive).toEqual({
      // In time: 2 days, 4 days, and the spam closed on day 1; late: 10 days; never: the NEW case.
      acknowledged_within_7_days: { met: 3, counted: 5, share: 0.6 },
      // In time: day 30 (due 3 months after day 2) and the spam closed on day 1; late: day 100 (due on
      // day 96); never, clock run out: the case in investigation and the NEW one.
      feedback_within_3_months: { met: 2, counted: 5, share: 0.4 },
    });
  });

  test("when the medians are read in a company's scope, then each clock's index is searched by its bucket, not filtered by it after the wall", async () => {
    const plans: PlanNode[] = [];
    await asTenant(companyA.companyId, () =>
      serviceDatabase(test$.deps.db, 'incident').transaction(async (tx) => {
        // A handful of cases: without this the planner reads the table whole, as it would not for a real company.
        await tx.query('set local enable_seqscan = off');
        const explaining: Queryable = {
          query: (async (sql: string, params?: unknown[]) => {
            const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${sql}`, params);
            const plan = rows[0]!['QUERY PLAN'];
            plans.push((typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan);
            return tx.query(sql, params);
          }) as Queryable['query'],
        };
        const range = { start: new Date('2025-01-01T00:00:00Z'), end: new Date('2025-07-01T00:00:00Z') };
        await reportingRepository.medians(explaining, { companyId: companyA.companyId, userId: adminA.userId }, range);
      }),
    );
    expect(plans).toHaveLength(3);
    const nodes = plans.flatMap(nodesOf);
    for (const clock of ['ack', 'feedback', 'close'])
      expect(nodes).toContainEqual(
        expect.objectContaining({
          'Index Name': `incident_${clock}_time_idx`,
          'Index Cond': expect.stringMatching(new RegExp(`\\b${clock}_time_bucket = `)),
        }),
      );
  });

  test('when asked, then open and overdue count the company now, whatever the period', async () => {
    const body = (await report(adminA, 'from=2025-03-01&to=2025-03-01')).body as ReportingResponse;
    expect(body.total).toBe(0);
    expect(body.by_month).toEqual([{ month: '2025-03', channels: { online: 0, telephone: 0, internal: 0 } }]);
    expect(body.times.to_acknowledge).toEqual({ median_days: null, cases: 0 });
    expect(body.directive.acknowledged_within_7_days).toEqual({ met: 0, counted: 0, share: null });
    // Not closed: investigation, NEW, acknowledged, the two just outside the period and today's. Overdue:
    // all but today's, whose clocks have days to run.
    expect({ open: body.now.open, overdue: body.now.overdue }).toEqual({ open: 6, overdue: 5 });
  });

  test('when an admin is excluded from a case, then no figure counts it for them; another admin sees it', async () => {
    const first = (await report(adminA)).body as ReportingResponse;
    const second = (await report(secondAdminA)).body as ReportingResponse;
    expect(second.total).toBe(first.total + 1);
    expect(second.by_month[1]).toEqual({ month: '2025-02', channels: { online: 1, telephone: 0, internal: 0 } });
    expect(second.by_category[0]).toEqual({ uuid: companyA.categories.fraud, name: 'Fraud', count: 5 });
    expect(second.now.open).toBe(first.now.open + 1);
  });

  test("when another company's admin asks, then only that company's cases are counted", async () => {
    const body = (await report(adminB)).body as ReportingResponse;
    expect(body.total).toBe(2);
    expect(body.by_month.map((month) => month.channels)).toEqual([
      { online: 0, telephone: 1, internal: 0 },
      { online: 0, telephone: 0, internal: 0 },
      { online: 0, telephone: 0, internal: 0 },
      { online: 0, telephone: 0, internal: 0 },
      { online: 1, telephone: 0, internal: 0 },
      { online: 0, telephone: 0, internal: 0 },
    ]);
    expect(body.by_category).toEqual([{ uuid: companyB.categories.fraud, name: 'Fraud', count: 2 }]);
    expect(body.times.to_close).toEqual({ median_days: 3, cases: 1 });
    expect(body.now.open).toBe(1);
  });

  test('when a reviewer or a handler asks, then 403; without a token, 401', async () => {
    expect((await report(reviewerA)).status).toBe(403);
    expect((await report(handlerA)).status).toBe(403);
    // A bad period changes nothing for a non-admin: the role is checked first.
    expect((await report(handlerA, 'from=nonsense')).status).toBe(403);
    expect((await call(incident.baseUrl, 'GET', `/api/incident/reporting?${PERIOD}`)).status).toBe(401);
  });

  test.each([
    ['a date that is not one', 'from=2025-13-01&to=2025-12-31', 'from'],
    ['a missing end', 'from=2025-01-01', 'to'],
    ['a reversed period', 'from=2025-06-30&to=2025-01-01', 'to'],
    ['a period of five years and a day', 'from=2020-01-01&to=2025-01-01', 'to'],
    ['given with an unknown parameter', `${PERIOD}&channel=online`, 'non_field_errors'],
  ])('when the period is %s, then 400 saying what is wrong', async (_what, query, field) => {
    const answer = await report(adminA, query);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Invalid query parameters');
    expect(answer.body.errors[field]).toEqual([expect.any(String)]);
  });

  test('when the period is five years less a day, then it is answered with sixty months', async () => {
    const answer = await report(adminA, 'from=2020-01-01&to=2024-12-31');
    expect(answer.status).toBe(200);
    expect((answer.body as ReportingResponse).by_month).toHaveLength(60);
    expect((answer.body as ReportingResponse).total).toBe(1);
  });
});
