#!/usr/bin/env node
// On-demand benchmark (not a test): GET /api/incident/reporting of one tenant with BENCH_CASES cases (default
// 100,000, spread over the last year) on PostgreSQL, seeded by case-seed.mjs. autocannon loads it as an ADMIN for
// periods covering a month, a quarter, the whole year and five years; latency is what the client saw, against the
// ≤ 300 ms p95 target (docs/performance.md). Also prints what each of the endpoint's queries costs in PostgreSQL
// (EXPLAIN ANALYZE) for the year.
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { seededTenant } from './case-seed.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 4);
const DAY_MS = 24 * 60 * 60 * 1000;
const day = (msAgo) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);

const { api, db, companyId, adminToken, seconds, close } = await seededTenant();
try {
  const { rows: counts } = await db.query(
    'select count(*)::int as cases from incident.incident where company_id = $1',
    [companyId],
  );
  const today = day(0);
  const periods = [
    ['last month (≈ 8,600 cases)', day(30 * DAY_MS)],
    ['last quarter (≈ 26,000 cases)', day(91 * DAY_MS)],
    ['last 12 months (all cases)', day(365 * DAY_MS)],
    ['five years less a day (60 months)', day(5 * 365 * DAY_MS)],
  ];
  console.log(
    `\n${counts[0].cases} cases in one tenant, seeded in ${seconds.toFixed(0)} s; PostgreSQL, standalone platform; autocannon ${CONNECTIONS} connections × ${DURATION_S} s per row; ${cpus().length} cores\n`,
  );
  console.log('| period | cases counted | req/s | p50 ms | p90 ms | p97.5 ms | p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [label, from] of periods) {
    const path = `/api/incident/reporting?from=${from}&to=${today}`;
    const answer = await fetch(api(path), { headers: { authorization: `Bearer ${adminToken}` } });
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    const { total } = await answer.json();
    const result = await autocannon({
      url: api(path),
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { accept: 'application/json', authorization: `Bearer ${adminToken}` },
    });
    console.log(
      `| ${label} | ${total} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p90} | ${result.latency.p97_5} | ${result.latency.p99} | ${result.errors + result.non2xx} |`,
    );
  }

  // The endpoint's statements for the year, as services/incident/src/data-access/reporting.repository.ts runs
  // them (the caller's exclusions read once), timed by PostgreSQL itself.
  const scope = `i.company_id = $1 and i.created_at >= $2 and i.created_at < $3
    and i.id <> all(array(select x.incident_id from incident.exclusion x where x.company_id = $1 and x.user_id = $1))`;
  const statements = {
    'counts (month, channel, status, outcome, location)': `select date_trunc('month', i.created_at, 'UTC'),
      i.report_channel, i.status, i.outcome, i.location_id, count(*) from incident.incident i where ${scope}
      group by 1, 2, 3, 4, 5`,
    'by label': `select top.id, top.name, count(distinct ic.incident_id) from incident.incident i
      join incident.incident_category ic on ic.incident_id = i.id
      join incident.category label on label.id = ic.category_id
      join incident.category top on top.id = coalesce(label.parent_id, label.id)
      where ${scope} group by top.id, top.name`,
    'medians and shares': `select count(*),
      percentile_cont(0.5) within group (order by extract(epoch from (i.acknowledged_at - i.created_at)))
        filter (where i.acknowledged_at is not null),
      count(*) filter (where coalesce(i.acknowledged_at, i.closed_at) <= i.acknowledgement_due_at)
      from incident.incident i where ${scope}`,
    'open and overdue now': `select (select count(*) from incident.incident i where i.company_id = $1 and i.status <> 'CLOSED'),
      (select count(*) from incident.incident i where i.company_id = $1 and i.next_due_at < now()) where $2::timestamptz < $3`,
  };
  const times = [];
  for (const [label, sql] of Object.entries(statements)) {
    const { rows } = await db.query(`explain (analyze, format json) ${sql}`, [
      companyId,
      new Date(Date.now() - 365 * DAY_MS),
      new Date(Date.now() + DAY_MS),
    ]);
    times.push(`${label} ${rows[0]['QUERY PLAN'][0]['Execution Time'].toFixed(1)} ms`);
  }
  console.log(`\nEXPLAIN ANALYZE (server time), last 12 months: ${times.join('; ')}`);
} finally {
  await close();
}
