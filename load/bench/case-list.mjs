#!/usr/bin/env node
// On-demand benchmark (not a test): the staff case list of one tenant with BENCH_CASES cases (default
// 100,000), as the browser calls it, seeded by case-seed.mjs: on PostgreSQL, or on the standalone platform's PGlite
// (BENCH_DATABASE=pglite), alone or among other tenants up to BENCH_TOTAL_CASES cases in all (BENCH_OTHER_TENANTS,
// default 9). autocannon then loads GET /api/incident/ for each sort, the filters and a deep page, as an ADMIN (sees
// everything) and a HANDLER (sees their cases). Latency is what the client saw, every response's time kept for
// p50/p95/p99. Also prints the server-side cost of the page query and of its count(*) (EXPLAIN ANALYZE).
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { asTenantOn, BACKEND, seededTenant } from './case-seed.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S || 0);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function load(url, token) {
  const times = [];
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const result = await instance;
  times.sort((a, b) => a - b);
  return {
    rps: Math.round(result.requests.average),
    p50: percentile(times, 50).toFixed(0),
    p95: percentile(times, 95).toFixed(0),
    p99: percentile(times, 99).toFixed(0),
    errors: result.errors + result.non2xx,
  };
}

const tenant = await seededTenant();
const { api, companyId, adminToken, handlerToken, seconds, close } = tenant;
try {
  const { rows: counts } = await tenant.withDb((db) =>
    db.query(
      `select count(*)::int as total, count(*) filter (where company_id = $1)::int as cases,
              count(*) filter (where company_id = $1 and next_due_at < now())::int as overdue,
              count(distinct company_id)::int as tenants
         from incident.incident`,
      [companyId],
    ),
  );
  const [{ total, cases, overdue, tenants }] = counts;
  // BENCH_SETTLE_S: measure a platform that has run a while after the seed, as one in its steady state has (its
  // deadline scheduler's first scan done, and on PGlite the maintenance rounds that follow it).
  if (SETTLE_S > 0) {
    console.log(`letting the platform run ${SETTLE_S} s before measuring`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  }

  const queries = [
    ['default (-last_activity_at), page 1', '/api/incident/'],
    ['sort created', '/api/incident/?sort=created'],
    ['sort -category__name', '/api/incident/?sort=-category__name'],
    ['overdue filter', '/api/incident/?overdue=true'],
    ['status filter + sort -created', '/api/incident/?status=INVESTIGATION&sort=-created'],
    ['channel filter', '/api/incident/?channel=telephone'],
    ['page 200 of 20', '/api/incident/?page=200'],
  ];
  console.log(
    `\n${cases} cases in the measured tenant (${overdue} overdue), ${total} in ${tenants} tenants, seeded in ${seconds.toFixed(0)} s; ${tenant.describe}, standalone platform; autocannon ${CONNECTIONS} connections × ${DURATION_S} s per row; ${cpus().length} cores; load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} (${new Date().toISOString()})\n`,
  );
  console.log('| caller | query | req/s | p50 ms | p95 ms | p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [role, token] of [
    ['ADMIN', adminToken],
    ['HANDLER (1 % assigned)', handlerToken],
  ]) {
    for (const [label, path] of queries) {
      const result = await load(api(path), token);
      console.log(
        `| ${role} | ${label} | ${result.rps} | ${result.p50} | ${result.p95} | ${result.p99} | ${result.errors} |`,
      );
    }
  }
  console.log(
    `load average at the end ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );

  // What the page query and the count cost in the database itself, for the admin's default view, in the company's
  // tenant scope as the platform runs them (row-level security).
  const [page, count] = await tenant.withDb((db) =>
    asTenantOn(db, companyId, async () => {
      const explain = async (sql) => {
        const { rows } = await db.query(`explain (analyze, format json) ${sql}`, [companyId]);
        const plan = rows[0]['QUERY PLAN'];
        return (typeof plan === 'string' ? JSON.parse(plan) : plan)[0]['Execution Time'].toFixed(2);
      };
      return [
        await explain(
          'select i.id from incident.incident i where i.company_id = $1 order by i.last_activity_at desc, i.id desc limit 20',
        ),
        await explain('select count(*) from incident.incident i where i.company_id = $1'),
      ];
    }),
  );
  console.log(
    `\nEXPLAIN ANALYZE (server time): page of 20 by -last_activity_at ${page} ms; count(*) of the tenant ${count} ms (${BACKEND})`,
  );
} finally {
  await close();
}
