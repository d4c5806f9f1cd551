#!/usr/bin/env node
// On-demand benchmark (not a test): GET /api/incident/reporting of one tenant with BENCH_CASES cases (default
// 100,000, spread over the last year) on PostgreSQL, seeded by case-seed.mjs. autocannon loads it as an ADMIN for
// periods covering a month, a quarter, the whole year and five years; latency is what the client saw, against the
// ≤ 300 ms p95 target (docs/performance.md). Also prints what each of the endpoint's queries costs in PostgreSQL
// (EXPLAIN ANALYZE) for the year. Waits first for the platform to fold the seed's reporting deltas into the
// per-day summary.
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { asTenantOn, seededTenant } from './case-seed.mjs';
// The incident service's build (npm run build): the reads the endpoint makes, timed below.
import incidentReporting from '../../services/incident/dist/data-access/reporting.repository.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 4);
const { reportingRepository } = incidentReporting;
const DAY_MS = 24 * 60 * 60 * 1000;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const day = (msAgo) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);

// The seed makes 80,000 cases overdue at once, as if no reminder had been sent for a year: the platform's deadline
// scheduler would spend the run sending them (17,000 updates and reminders in the first 90 s), which a tenant in
// its steady state never does. Held off (one scan at start, before the seed) unless given.
process.env.DEADLINE_SCAN_INTERVAL_MS ??= String(60 * 60 * 1000);
const { api, db, companyId, adminToken, seconds, close } = await seededTenant();
try {
  // The seed's bulk INSERTs leave their reporting deltas (migration 008) for the platform's fold job
  // (REPORTING_FOLD_INTERVAL_MS): measured once they are in the per-day summary, as a running service keeps it.
  const folding = performance.now();
  while ((await db.query('select exists (select 1 from incident.reporting_delta) as pending')).rows[0].pending)
    await new Promise((resolve) => setTimeout(resolve, 1000));
  // Again, as autovacuum would: the seed's VACUUM ran while the fold's transaction was open, so the cases' pages
  // were not all marked visible and index-only scans went to the table.
  await db.query('vacuum analyze');
  const { rows: summaryRows } = await db.query(
    'select count(*)::int as rows from incident.reporting_summary where company_id = $1',
    [companyId],
  );
  console.log(
    `\nseed's deltas folded into the summary within ${((performance.now() - folding) / 1000).toFixed(0)} s: ${summaryRows[0].rows} summary rows for the tenant`,
  );
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
  console.log('| period | cases counted | req/s | p50 ms | p90 ms | p95 ms | p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [label, from] of periods) {
    const path = `/api/incident/reporting?from=${from}&to=${today}`;
    const answer = await fetch(api(path), { headers: { authorization: `Bearer ${adminToken}` } });
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    const { total } = await answer.json();
    // Percentiles from every response's time (autocannon's own table has no p95, the target's percentile).
    const responseTimes = [];
    const instance = autocannon({
      url: api(path),
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { accept: 'application/json', authorization: `Bearer ${adminToken}` },
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => responseTimes.push(responseTime));
    const result = await instance;
    responseTimes.sort((a, b) => a - b);
    const [p50, p90, p95, p99] = [50, 90, 95, 99].map((p) => percentile(responseTimes, p).toFixed(0));
    console.log(
      `| ${label} | ${total} | ${Math.round(result.requests.average)} | ${p50} | ${p90} | ${p95} | ${p99} | ${result.errors + result.non2xx} |`,
    );
  }

  // The endpoint's reads for the year, run by the service's own repository (its build: the same SQL, never a
  // copy) on a connection that has PostgreSQL time each statement (EXPLAIN ANALYZE) before answering it. A
  // viewer with no exclusions (the company's id stands in for a user id).
  const scope = { companyId, userId: companyId };
  const range = { start: new Date(`${day(365 * DAY_MS)}T00:00:00Z`), end: new Date(`${day(-DAY_MS)}T00:00:00Z`) };
  const reads = {
    'counts, labels and shares': (queryable, now) => reportingRepository.counts(queryable, scope, range, now),
    'the three medians': (queryable) => reportingRepository.medians(queryable, scope, range),
    'open and overdue now': (queryable, now) => reportingRepository.now(queryable, scope, now),
  };
  const times = [];
  for (const [label, read] of Object.entries(reads)) {
    // The median of three: one execution on a shared machine can land on someone else's burst.
    const runs = [];
    for (let run = 0; run < 3; run += 1) {
      let statements = 0;
      let serverMs = 0;
      // One statement at a time on the one client (the medians are asked for side by side).
      let tail = Promise.resolve();
      const explaining = {
        query(sql, params) {
          const result = tail.then(async () => {
            const { rows } = await db.query(`explain (analyze, format json) ${sql}`, params);
            statements += 1;
            serverMs += rows[0]['QUERY PLAN'][0]['Execution Time'];
            return db.query(sql, params);
          });
          tail = result.catch(() => undefined);
          return result;
        },
      };
      // As the platform runs them for an admin: inside the company's tenant scope (row-level security), where a
      // condition built of functions that are not LEAKPROOF cannot search an index (docs/performance.md).
      await asTenantOn(db, scope.companyId, () => read(explaining, new Date()));
      runs.push({ statements, serverMs });
    }
    const { statements, serverMs } = runs.sort((a, b) => a.serverMs - b.serverMs)[1];
    times.push(`${label} ${serverMs.toFixed(1)} ms (statements: ${statements})`);
  }
  console.log(`\nEXPLAIN ANALYZE (server time, median of 3), last 12 months: ${times.join('; ')}`);
} finally {
  await close();
}
