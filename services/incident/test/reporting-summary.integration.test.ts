/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import { incidentOutcomes, incidentStatuses, reportChannels, type ReportingResponse } from '@whistle/contracts';
import { asTenant, type Queryable, serviceDatabase } from '@whistle/service-kit';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { incidentMigrations } from '../src/data-access/migrations';
import { reportingRepository } from '../src/data-access/reporting.repository';
import { monthsOf } from '../src/domain/reporting/company-report.use-case';
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

// Jobs run only when a test asks (runOnce), besides the one every start makes.
const quiet = {
  DEADLINE_SCAN_INTERVAL_MS: '3600000',
  RETENTION_SCAN_INTERVAL_MS: '3600000',
  REPORTING_FOLD_INTERVAL_MS: '3600000',
};
const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** A plan node of EXPLAIN (FORMAT JSON), as far as the tests read it. */
interface PlanNode {
  'Index Cond'?: string;
  'Join Filter'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The figures straight from the cases' rows, as the endpoint computed them before the per-day summary
 * (migration 008): the oracle the summary's answers must equal, whatever was changed, folded or deleted.
 */
async function direct(
  test$: TestDependencies,
  viewer: StaffMember,
  from: string,
  to: string,
  now: Date,
): Promise<ReportingResponse> {
  const db = test$.deps.db;
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  const params = [viewer.companyId, viewer.userId, new Date(`${from}T00:00:00Z`), end];
  const period = `i.company_id = $1 and i.created_at >= $3 and i.created_at < $4
    and i.id not in (select x.incident_id from incident.exclusion x where x.user_id = $2)`;
  const closedAt = `case when i.status = 'CLOSED' then i.closed_at end`;
  const count = async (column: string) =>
    (
      await db.query<{ key: string; count: number }>(
        `select ${column} as key, count(*)::int as count from incident.incident i where ${period} group by 1`,
        params,
      )
    ).rows;
  const byMonth = await db.query<{ month: string; channel: string; count: number }>(
    `select to_char(i.created_at at time zone 'UTC', 'YYYY-MM') as month, i.report_channel as channel, count(*)::int
       from incident.incident i where ${period} group by 1, 2`,
    params,
  );
  const byCategory = await db.query<{ uuid: string; name: string; count: number }>(
    `select top.id as uuid, top.name, count(distinct i.id)::int as count
       from incident.incident i
       join incident.incident_category ic on ic.incident_id = i.id
       join incident.category label on label.id = ic.category_id
       join incident.category top on top.id = coalesce(label.parent_id, label.id)
      where ${period} group by top.id, top.name`,
    params,
  );
  const byLocation = await db.query<{ uuid: string; name: string; count: number }>(
    `select l.id as uuid, l.name, count(*)::int as count from incident.incident i
       join incident.location l on l.id = i.location_id where ${period} group by l.id, l.name`,
    params,
  );
  const ackDone = `coalesce(i.acknowledged_at, ${closedAt})`;
  const feedbackDone = `coalesce(i.feedback_at, ${closedAt})`;
  const median = (to: string) =>
    `percentile_cont(0.5) within group (order by extract(epoch from (${to} - i.created_at))) filter (where ${to} is not null)`;
  const times = await db.query<Record<string, number | null>>(
    `select count(*)::int as total,
            ${median('i.acknowledged_at')} as ack_median, count(i.acknowledged_at)::int as ack_cases,
            ${median('i.feedback_at')} as feedback_median, count(i.feedback_at)::int as feedback_cases,
            ${median(closedAt)} as close_median, count(${closedAt})::int as close_cases,
            count(*) filter (where ${ackDone} <= i.acknowledgement_due_at)::int as ack_met,
            count(*) filter (where ${ackDone} is not null or i.acknowledgement_due_at <= $5)::int as ack_counted,
            count(*) filter (where ${feedbackDone} <= i.feedback_due_at)::int as feedback_met,
            count(*) filter (where ${feedbackDone} is not null or i.feedback_due_at <= $5)::int as feedback_counted
       from incident.incident i where ${period}`,
    [...params, now],
  );
  const t = times.rows[0]!;
  const current = await db.query<{ open: number; overdue: number }>(
    `select count(*) filter (where i.status <> 'CLOSED')::int as open,
            count(*) filter (where i.next_due_at < $3)::int as overdue
       from incident.incident i
      where i.company_id = $1 and i.id not in (select x.incident_id from incident.exclusion x where x.user_id = $2)`,
    [viewer.companyId, viewer.userId, now],
  );
  const statuses = new Map((await count('i.status')).map((row) => [row.key, row.count]));
  const outcomes = new Map((await count('i.outcome')).map((row) => [row.key, row.count]));
  const days = (seconds: number | null) =>
    seconds === null ? null : Math.round((seconds / (24 * 60 * 60)) * 100) / 100;
  const share = (met: number, counted: number) => ({ met, counted, share: counted === 0 ? null : met / counted });
  const byCountThenName = (a: { count: number; name: string }, b: { count: number; name: string }) =>
    b.count - a.count || a.name.localeCompare(b.name);
  return {
    period: { from, to },
    total: t.total!,
    by_month: monthsOf(from, to).map((month) => ({
      month,
      channels: Object.fromEntries(
        reportChannels.map((channel) => [
          channel,
          byMonth.rows.find((row) => row.month === month && row.channel === channel)?.count ?? 0,
        ]),
      ) as ReportingResponse['by_month'][number]['channels'],
    })),
    by_category: byCategory.rows.sort(byCountThenName),
    by_location: byLocation.rows.sort(byCountThenName),
    by_status: incidentStatuses.map((status) => ({ status, count: statuses.get(status) ?? 0 })),
    by_outcome: incidentOutcomes.map((outcome) => ({ outcome, count: outcomes.get(outcome) ?? 0 })),
    times: {
      to_acknowledge: { median_days: days(t.ack_median!), cases: t.ack_cases! },
      to_first_feedback: { median_days: days(t.feedback_median!), cases: t.feedback_cases! },
      to_close: { median_days: days(t.close_median!), cases: t.close_cases! },
    },
    directive: {
      acknowledged_within_7_days: share(t.ack_met!, t.ack_counted!),
      feedback_within_3_months: share(t.feedback_met!, t.feedback_counted!),
    },
    now: { ...current.rows[0]!, at: now.toISOString() },
  };
}

describe.each(testStacks)('reporting summary on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let other: SeededCompany;
  let admin: StaffMember;
  let excludedAdmin: StaffMember;
  let otherAdmin: StaffMember;
  const db = () => test$.deps.db;
  const today = new Date();
  // Periods ending today (the endpoint's longest, a quarter, today alone) and one in the past.
  const periods = [
    [dayOf(new Date(today.getTime() - (5 * 365 - 1) * DAY_MS)), dayOf(today)],
    [dayOf(new Date(today.getTime() - 91 * DAY_MS)), dayOf(today)],
    [dayOf(today), dayOf(today)],
    [dayOf(new Date(today.getTime() - 400 * DAY_MS)), dayOf(new Date(today.getTime() - 20 * DAY_MS))],
  ] as const;

  async function makeCase(target: SeededCompany, overrides: Record<string, unknown> = {}): Promise<string> {
    return (await fileReport(incident.baseUrl, (await reportFor(target, undefined, overrides)).body)).uuid;
  }

  /** Moves a case's receipt and clocks by hand: `created` days ago, each clock stopped `n` days after (or not). */
  async function setCase(
    id: string,
    set: { created: number; channel?: string; ack?: number; feedback?: number; ackDueIn?: number },
  ) {
    await db().query(
      `update incident.incident set
         created_at = now() - make_interval(secs => $2::float8 * 86400),
         report_channel = $3,
         acknowledged_at = now() - make_interval(secs => ($2 - $4::float8) * 86400),
         feedback_at = now() - make_interval(secs => ($2 - $5::float8) * 86400),
         acknowledgement_due_at = now() - make_interval(secs => ($2 - coalesce($6::float8, 7)) * 86400),
         feedback_due_at = now() - make_interval(secs => ($2 - 97) * 86400)
       where id = $1`,
      [id, set.created, set.channel ?? 'online', set.ack ?? null, set.feedback ?? null, set.ackDueIn ?? null],
    );
  }

  const update = async (id: string, body: Record<string, unknown>) => {
    const answer = await call(incident.baseUrl, 'PUT', `/api/incident/${id}`, { token: await admin.token(), body });
    expect(answer.status).toBe(200);
  };

  /** Every period, for each admin: the endpoint's answer equals the computation over the rows. */
  async function expectFiguresFromRows() {
    for (const member of [admin, excludedAdmin, otherAdmin])
      for (const [from, to] of periods) {
        const answer = await call(incident.baseUrl, 'GET', `/api/incident/reporting?from=${from}&to=${to}`, {
          token: await member.token(),
        });
        expect(answer.status).toBe(200);
        const figures = answer.body as ReportingResponse;
        expect(figures).toEqual(await direct(test$, member, from, to, new Date(figures.now.at)));
      }
  }

  const deltas = async () =>
    (await db().query<{ count: number }>('select count(*)::int as count from incident.reporting_delta')).rows[0]!.count;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps, quiet);
    company = await seedCompany(test$.deps);
    other = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    excludedAdmin = await announceStaff(test$.deps, company, 'Exa Admin', ['ADMIN']);
    otherAdmin = await announceStaff(test$.deps, other, 'Otto Admin', ['ADMIN']);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  test('when cases are received, moved, labelled, closed, reopened and deleted, then every figure equals the rows’, folded or not', async () => {
    const { fraud, bribery, retired } = company.categories;
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1)
      ids.push(
        await makeCase(company, {
          category_uuids: i % 3 === 0 ? [fraud, bribery] : i % 3 === 1 ? [bribery] : [fraud],
        }),
      );
    const elsewhere = await makeCase(other, { category_uuids: [other.categories.fraud] });
    // Received over the last year and a half, by every channel; some acknowledged late or in time, fed back;
    // two with a clock falling due today, one already run out and one not yet; the rest as received today.
    await setCase(ids[0]!, { created: 500, channel: 'telephone', ack: 2, feedback: 40 });
    await setCase(ids[1]!, { created: 300.5, channel: 'internal', ack: 9 });
    await setCase(ids[2]!, { created: 200, ack: 1, feedback: 120 });
    await setCase(ids[3]!, { created: 45, channel: 'telephone', ack: 3 });
    await setCase(ids[4]!, { created: 30 });
    await setCase(ids[5]!, { created: 7 + 1 / 48, ackDueIn: 7 });
    await setCase(ids[6]!, { created: 7 - 1 / 48, ackDueIn: 7, channel: 'internal' });
    await setCase(ids[7]!, { created: 0.01, ack: 0.005 });
    await setCase(elsewhere, { created: 10, ack: 1 });
    await db().query('update incident.incident set location_id = $2 where id = $1', [ids[8], company.locations.closed]);
    await db().query('insert into incident.exclusion (incident_id, user_id, company_id) values ($1, $2, $3)', [
      ids[3],
      excludedAdmin.userId,
      company.companyId,
    ]);
    // Through the API: statuses, a closing with its outcome, a reopening, labels changed.
    await update(ids[2]!, { status: 'ACKNOWLEDGED' });
    await update(ids[2]!, { status: 'INVESTIGATION' });
    await update(ids[10]!, { status: 'ACKNOWLEDGED' });
    await update(ids[0]!, {
      status: 'CLOSED',
      outcome: 'substantiated',
      motivation: 'v1.AAAA',
      final_message: 'v1.AAAA',
    });
    await update(ids[4]!, { status: 'CLOSED', outcome: 'spam', motivation: 'v1.AAAA', final_message: 'v1.AAAA' });
    await update(ids[9]!, { status: 'CLOSED', outcome: 'withdrawn', motivation: 'v1.AAAA', final_message: 'v1.AAAA' });
    await update(ids[9]!, { status: 'REOPENED', motivation: 'v1.AAAA' });
    await update(ids[1]!, { category_uuids: [bribery, fraud] });
    await update(ids[10]!, { category_uuids: [bribery] });
    await expectFiguresFromRows();
    expect(await deltas()).toBeGreaterThan(0);

    expect(await incident.service.reportingFold.runOnce()).toBeGreaterThan(0);
    expect(await deltas()).toBe(0);
    await expectFiguresFromRows();

    // After the fold: more changes, in the deltas on top of the summary. A case moved to another day with its
    // labels, a label taken off and an inactive one given, a closed case deleted by retention.
    await setCase(ids[8]!, { created: 60, channel: 'telephone', ack: 20, feedback: 30 });
    await db().query('delete from incident.incident_category where incident_id = $1 and category_id = $2', [
      ids[0],
      bribery,
    ]);
    await db().query('insert into incident.incident_category (incident_id, category_id) values ($1, $2)', [
      ids[3],
      retired,
    ]);
    await update(ids[11]!, { status: 'CLOSED', outcome: 'referred', motivation: 'v1.AAAA', final_message: 'v1.AAAA' });
    await db().query(`update incident.incident set closed_at = now() - interval '400 days' where id = $1`, [ids[4]]);
    expect((await incident.service.retention.runOnce()).deleted).toBe(1);
    expect((await db().query('select 1 from incident.incident where id = $1', [ids[4]])).rows).toHaveLength(0);
    await expectFiguresFromRows();

    await incident.service.reportingFold.runOnce();
    await expectFiguresFromRows();
    // Nothing counted, nothing kept: the running clocks that stopped, the deleted case's day.
    expect((await db().query('select 1 from incident.reporting_summary where count <= 0')).rows).toHaveLength(0);
  });

  test('when a label moves under another parent, then its cases count for the new top-level label', async () => {
    // auth does not move labels today; the read model would follow if it did.
    await db().query('update incident.category set parent_id = $2 where id = $1', [
      company.categories.bribery,
      company.categories.retired,
    ]);
    await expectFiguresFromRows();
    await db().query('update incident.category set parent_id = null where id = $1', [company.categories.bribery]);
    await expectFiguresFromRows();
    await incident.service.reportingFold.runOnce();
    await expectFiguresFromRows();
  });

  test("when the running clocks falling due today are counted in a company's scope, then only the cases of their days are read, searched by the index", async () => {
    // A company of its own, with enough cases that reading all of them is not what the planner would choose:
    // 2,000 received an hour apart, copied from a real report, none due today but one.
    const busy = await seedCompany(test$.deps);
    const template = await makeCase(busy);
    const { rows: columns } = await db().query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_schema = 'incident' and table_name = 'incident' and is_generated = 'NEVER'
        order by ordinal_position`,
    );
    const copied: Record<string, string> = {
      id: 'gen_random_uuid()',
      display_report_number: '1 + g',
      retrieval_id: `t.retrieval_id || '-' || g`,
      created_at: `now() - g * interval '1 hour'`,
      acknowledgement_due_at: `now() + interval '30 days'`,
    };
    await db().query(
      `insert into incident.incident (${columns.map((column) => column.name).join(', ')})
       select ${columns.map((column) => copied[column.name] ?? `t.${column.name}`).join(', ')}
         from incident.incident t, generate_series(1, 2000) g where t.id = $1`,
      [template],
    );
    await setCase(template, { created: 3, ackDueIn: 3 });
    await db().query('analyze incident.incident');
    const statements: { sql: string; plan: PlanNode }[] = [];
    await asTenant(busy.companyId, () =>
      serviceDatabase(db(), 'incident').transaction(async (tx) => {
        const explaining: Queryable = {
          query: (async (sql: string, params?: unknown[]) => {
            const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${sql}`, params);
            const plan = rows[0]!['QUERY PLAN'];
            statements.push({ sql, plan: (typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan });
            return tx.query(sql, params);
          }) as Queryable['query'],
        };
        const range = { start: new Date(today.getTime() - 365 * DAY_MS), end: new Date(today.getTime() + DAY_MS) };
        const counts = await reportingRepository.counts(
          explaining,
          { companyId: busy.companyId, userId: randomUUID() },
          range,
          new Date(),
        );
        // The template's clock ran out just now: counted, so the cases of its day were read.
        expect(counts.ack_counted).toBe(1);
      }),
    );
    const byDay = statements.find(({ sql }) => sql.includes(' received'));
    expect(byDay).toBeDefined();
    const nodes = nodesOf(byDay!.plan);
    expect(nodes.filter((node) => node['Join Filter']?.includes('created_at'))).toEqual([]);
    // The received day's bounds in the search of the cases (plain or bitmap index scan).
    expect(nodes).toContainEqual(
      expect.objectContaining({ 'Index Cond': expect.stringMatching(/\(created_at >= .*\bday\.day\b/) }),
    );
  });

  test('when the summary is built by the upgrade from cases already there, then it gives the same figures', async () => {
    const sqlOf = (id: string) => incidentMigrations.migrations.find((migration) => migration.id === id)!.sql;
    const summary = sqlOf('008_reporting_summary');
    const nowAndMedians = sqlOf('009_reporting_now_and_medians');
    // 008's back-fill (with today's case facts, 009's dimensions included), then 009's on its own.
    await db().transaction(async (tx) => {
      await tx.query('delete from incident.reporting_summary');
      await tx.query('delete from incident.reporting_delta');
      await tx.query(summary.slice(summary.indexOf('-- The figures of the cases already there')));
    });
    await expectFiguresFromRows();
    await db().transaction(async (tx) => {
      await tx.query(
        "delete from incident.reporting_summary where dimension in ('next_due', 'ack_time', 'feedback_time', 'close_time')",
      );
      await tx.query(nowAndMedians.slice(nowAndMedians.indexOf('insert into incident.reporting_summary')));
    });
    await expectFiguresFromRows();
  });
});
