#!/usr/bin/env node
// On-demand benchmark (not a test): the staff case list of one tenant with BENCH_CASES cases (default
// 100,000) on PostgreSQL, as the browser calls it, seeded by case-seed.mjs. autocannon then loads GET /api/incident/ for each sort, the overdue filter and a deep page, as an
// ADMIN (sees everything) and a HANDLER (sees their cases). Latency is what the client saw. Also prints the
// server-side cost of the page query and of its count(*) (EXPLAIN ANALYZE).
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { seededTenant } from './case-seed.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);

async function load(url, token) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p97: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const { api, db, companyId, adminToken, handlerToken, seconds, close } = await seededTenant();
try {
  const { rows: counts } = await db.query(
    `select count(*)::int as cases, count(*) filter (where next_due_at < now())::int as overdue from incident.incident`,
  );

  const queries = [
    ['default (-last_activity_at), page 1', '/api/incident/'],
    ['sort created', '/api/incident/?sort=created'],
    ['sort -category__name', '/api/incident/?sort=-category__name'],
    ['overdue filter', '/api/incident/?overdue=true'],
    ['status filter + sort -created', '/api/incident/?status=INVESTIGATION&sort=-created'],
    ['page 200 of 20', '/api/incident/?page=200'],
  ];
  console.log(
    `\n${counts[0].cases} cases in one tenant (${counts[0].overdue} overdue), seeded in ${seconds.toFixed(0)} s; PostgreSQL, standalone platform; autocannon ${CONNECTIONS} connections × ${DURATION_S} s per row; ${cpus().length} cores\n`,
  );
  console.log('| caller | query | req/s | p50 ms | p97.5 ms | p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [role, token] of [
    ['ADMIN', adminToken],
    ['HANDLER (1 % assigned)', handlerToken],
  ]) {
    for (const [label, path] of queries) {
      const result = await load(api(path), token);
      console.log(
        `| ${role} | ${label} | ${result.rps} | ${result.p50} | ${result.p97} | ${result.p99} | ${result.errors} |`,
      );
    }
  }

  // What the page query and the count cost in PostgreSQL itself, for the admin's default view.
  const explain = async (sql) => {
    const { rows } = await db.query(`explain (analyze, format json) ${sql}`, [companyId]);
    return rows[0]['QUERY PLAN'][0]['Execution Time'].toFixed(2);
  };
  const page = await explain(
    'select i.id from incident.incident i where i.company_id = $1 order by i.last_activity_at desc, i.id desc limit 20',
  );
  const count = await explain('select count(*) from incident.incident i where i.company_id = $1');
  console.log(
    `\nEXPLAIN ANALYZE (server time): page of 20 by -last_activity_at ${page} ms; count(*) of the tenant ${count} ms`,
  );
} finally {
  await close();
}
