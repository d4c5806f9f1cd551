#!/usr/bin/env node
// On-demand benchmark (not a test): the discloser journey and the staff case list under autocannon — the same
// paths as k6/discloser-journey.js and k6/case-list.js — next to a bare Express baseline measured in the same
// run, on two stacks:
//   postgres: cluster mode, auth and incident each their own process (services/*/dist/main.js) on PostgreSQL
//             (a database of its own on BENCH_DATABASE_URL's server) and RabbitMQ (AMQP_URL), called directly
//             (no gateway: the ingress is not what is measured);
//   pglite:   the standalone platform (standalone/dist/main.js) on its embedded PGlite.
// Report bodies are encrypted up front as browsers encrypt them (discloser-data.mjs); each create carries a fresh
// Idempotency-Key, as the report page sends one. Every request comes from its own client address
// (X-Forwarded-For, TRUST_PROXY=1: many disclosers behind an ingress), so the per-client limits stay as
// configured; the per-company report limit is raised for the run. On PostgreSQL, pg_stat_activity of the
// database is sampled during the create runs (where the incident service's connections wait).
// Env: BENCH_STACKS (postgres,pglite), BENCH_PATHS (all: view,create,retrieve,thread,message,cases),
// BENCH_RUNS (3, medians), BENCH_DURATION_S (10), BENCH_CONNECTIONS (50), BENCH_PAYLOADS (300), BENCH_CPU_PROFILE
// (a folder: the incident process's V8 CPU profile, cluster mode), BENCH_BUILD_ROOT (another tree's built services and
// standalone platform to run instead, e.g. an earlier commit's: docs/performance.md says how one is made).
// Requires `npm run build` first.
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startCluster } from './cluster.mjs';
import { discloserReports } from './discloser-data.mjs';
import { median, onboard, root, startStandalone, withExpressBaseline } from './platform.mjs';
import { signIn } from './staff-keys.mjs';

const STACKS = (process.env.BENCH_STACKS || 'postgres,pglite').split(',');
const PATHS = (process.env.BENCH_PATHS || 'view,create,retrieve,thread,message,cases').split(',');
const RUNS = Number(process.env.BENCH_RUNS || 3);
const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const PAYLOADS = Number(process.env.BENCH_PAYLOADS || 300);
const buildRoot = process.env.BENCH_BUILD_ROOT || root;

/** Limits of the run: past 30 reports an hour a company's reports cost a proof of work, which is not measured here. */
const limits = {
  TRUST_PROXY: '1',
  POW_FREE_REPORTS_PER_COMPANY: '100000000',
  LOG_LEVEL: 'warn',
};

const load1 = () => loadavg()[0].toFixed(1);
let clientNumber = 0;
/** A new client address per request: 10.0.0.0/8 gives 16 million. */
const nextClient = () => {
  clientNumber += 1;
  return `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
};

async function expectOk(response) {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** auth and incident as in a cluster, each its own process on PostgreSQL and RabbitMQ. */
function startPostgres() {
  // BENCH_CPU_PROFILE=<folder>: the incident process writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE;
  return startCluster({
    env: limits,
    buildRoot,
    incident: { nodeArgs: profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [] },
  });
}

async function startPglite() {
  const platform = await startStandalone(limits, { root: buildRoot });
  return {
    describe: `PGlite, standalone platform (one process; ${buildRoot})`,
    authUrl: platform.baseUrl,
    dataDir: platform.dataDir,
    incidentUrl: platform.baseUrl,
    incidentPid: platform.child.pid,
    stop: () => platform.stop(),
  };
}

/** Samples the database's backends every 20 ms while `work` runs: what they are doing, counted. */
async function sampleActivity(databaseUrl, work) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts = new Map();
  let samples = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await client.query(
        `select state, coalesce(wait_event_type || ':' || wait_event, 'cpu/network') as waiting,
                regexp_replace(left(query, 70), '\\s+', ' ', 'g') as query
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      samples += 1;
      for (const row of rows) {
        const key = `${row.state} | ${row.state === 'idle' ? '' : row.waiting} | ${row.state === 'idle' ? '' : row.query}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { result: await work(), activity: { counts, samples } };
  } finally {
    running = false;
    await sampling;
    await client.end();
  }
}

async function cannon(options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // autocannon's `errors` counts connection errors, timeouts included.
    errors: result.errors + result.non2xx,
    timeouts: result.timeouts,
  };
}

async function benchStack(stack, baselineUrl) {
  const platform = stack === 'postgres' ? await startPostgres() : await startPglite();
  try {
    const company = await onboard({ baseUrl: platform.authUrl, dataDir: platform.dataDir }, 0);
    const view = await expectOk(await fetch(`${platform.authUrl}/api/account/company/${company.urlIdentifier}`));
    const started = performance.now();
    const reports = await discloserReports(company.urlIdentifier, view, PAYLOADS);
    console.error(`${PAYLOADS} report bodies encrypted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const createUrl = `${platform.incidentUrl}/api/incident/`;
    // The incident service learns of the company from auth's event: wait until it takes a report.
    const retrievals = [];
    for (let i = 0; ; i += 1) {
      const response = await fetch(createUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': nextClient() },
        body: JSON.stringify(reports[0].body),
      });
      if (response.status === 201) {
        retrievals.push({ retrievalId: (await response.json()).retrieval_id, authToken: reports[0].authToken });
        break;
      }
      if (i > 100) throw new Error(`the incident service never took a report: ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const staffToken = await signIn(platform.authUrl, company.email, company.password);
    const sessions = [];

    let sent = 0;
    const paths = {
      view: () => ({
        url: `${platform.authUrl}/api/account/company/${company.urlIdentifier}`,
        headers: { accept: 'application/json' },
      }),
      create: () => ({
        url: createUrl,
        requests: [
          {
            method: 'POST',
            setupRequest(request, context) {
              context.report = sent++ % reports.length;
              return {
                ...request,
                headers: {
                  'content-type': 'application/json',
                  accept: 'application/json',
                  'idempotency-key': randomUUID(),
                  'x-forwarded-for': nextClient(),
                },
                body: JSON.stringify(reports[context.report].body),
              };
            },
            onResponse(status, body, context) {
              if (status === 201)
                retrievals.push({
                  retrievalId: JSON.parse(body).retrieval_id,
                  authToken: reports[context.report].authToken,
                });
            },
          },
        ],
      }),
      retrieve: () => ({
        url: `${platform.incidentUrl}/api/incident/discloser`,
        requests: [
          {
            method: 'GET',
            setupRequest(request) {
              const { retrievalId, authToken } = retrievals[sent++ % retrievals.length];
              return {
                ...request,
                path: `/api/incident/discloser?url_identifier=${company.urlIdentifier}&retrieval_id=${retrievalId}`,
                headers: {
                  accept: 'application/json',
                  authorization: `Bearer ${authToken}`,
                  'x-forwarded-for': nextClient(),
                },
              };
            },
            onResponse(status, body) {
              if (status === 200 && sessions.length < 20_000) {
                const opened = JSON.parse(body);
                sessions.push({ incident: opened.uuid, token: opened.token });
              }
            },
          },
        ],
      }),
      thread: () => ({
        url: `${platform.incidentUrl}/api/incident/`,
        requests: [
          {
            method: 'GET',
            setupRequest(request) {
              const session = sessions[sent++ % sessions.length];
              return {
                ...request,
                path: `/api/incident/${session.incident}/message`,
                headers: { accept: 'application/json', authorization: `Bearer ${session.token}` },
              };
            },
          },
        ],
      }),
      message: () => ({
        url: `${platform.incidentUrl}/api/incident/message/`,
        requests: [
          {
            method: 'POST',
            setupRequest(request) {
              // A case takes 20 discloser messages an hour: the run spreads them over every opened case.
              const session = sessions[sent++ % sessions.length];
              return {
                ...request,
                headers: {
                  'content-type': 'application/json',
                  accept: 'application/json',
                  authorization: `Bearer ${session.token}`,
                  'x-forwarded-for': nextClient(),
                },
                body: JSON.stringify({ incident_uuid: session.incident, content: reports[0].message }),
              };
            },
          },
        ],
      }),
      cases: () => ({
        url: `${platform.incidentUrl}/api/incident/?sort=-created`,
        headers: { accept: 'application/json', authorization: `Bearer ${staffToken}` },
      }),
    };

    const rows = [];
    const loadBefore = load1();
    for (const name of PATHS) {
      const measured = [];
      const baselines = [];
      let activity;
      for (let run = 0; run < RUNS; run += 1) {
        baselines.push(await cannon({ url: baselineUrl }));
        sent = 0;
        if (name === 'create' && platform.databaseUrl) {
          const sampled = await sampleActivity(platform.databaseUrl, () => cannon(paths[name]()));
          measured.push(sampled.result);
          activity = sampled.activity;
        } else measured.push(await cannon(paths[name]()));
      }
      const pick = (list, key) => median(list.map((entry) => entry[key]));
      const row = {
        name,
        rps: pick(measured, 'rps'),
        p50: pick(measured, 'p50'),
        p99: pick(measured, 'p99'),
        errors: measured.reduce((sum, entry) => sum + entry.errors, 0),
        timeouts: measured.reduce((sum, entry) => sum + entry.timeouts, 0),
        baseline: pick(baselines, 'rps'),
        load: load1(),
      };
      rows.push(row);
      console.error(`${stack} ${name}: ${JSON.stringify(row)}`);
      if (activity) {
        const top = [...activity.counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
        console.log(
          `\npg_stat_activity during the last create run (${activity.samples} samples, mean backends per state):\n`,
        );
        console.log('| mean backends | state | waiting on | statement |');
        console.log('| --- | --- | --- | --- |');
        for (const [key, count] of top) console.log(`| ${(count / activity.samples).toFixed(2)} | ${key} |`);
      }
    }
    // Requests autocannon left in flight at the end of a run are still being stored: counted once they settle.
    const count = async () => {
      const client = new pg.Client({ connectionString: platform.databaseUrl });
      await client.connect();
      try {
        const { rows: counted } = await client.query(
          `select (select count(*) from incident.incident)::int as reports,
                  (select count(distinct display_report_number) from incident.incident)::int as numbers,
                  (select next_report_number - 1 from incident.company)::int as highest`,
        );
        return counted[0];
      } finally {
        await client.end();
      }
    };
    let total;
    if (platform.databaseUrl) {
      let previous;
      do {
        previous = total;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        total = await count();
      } while (JSON.stringify(total) !== JSON.stringify(previous));
    }

    console.log(
      `\n${platform.describe}; autocannon ${CONNECTIONS} connections × ${DURATION_S} s, median of ${RUNS} runs, each after a baseline run; ${cpus().length} cores; load average ${loadBefore} before, ${load1()} after (${new Date().toISOString()})\n`,
    );
    console.log('| path | req/s | p50 ms | p99 ms | errors (timeouts) | baseline req/s | ratio | load avg |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    const labels = {
      view: 'GET /api/account/company/{id}',
      create: 'POST /api/incident/ (encrypted, Idempotency-Key)',
      retrieve: 'GET /api/incident/discloser (secret code)',
      thread: 'GET /api/incident/{id}/message (discloser)',
      message: 'POST /api/incident/message/ (discloser)',
      cases: 'GET /api/incident/?sort=-created (ADMIN)',
    };
    for (const row of rows)
      console.log(
        `| ${labels[row.name]} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.errors} (${row.timeouts}) | ${row.baseline.toFixed(0)} | ${(row.rps / row.baseline).toFixed(2)}× | ${row.load} |`,
      );
    if (total)
      console.log(
        `\n${total.reports} reports stored, ${total.numbers} distinct numbers, ${total.highest} numbers taken (gap-free: ${total.reports === total.numbers && total.numbers === total.highest})`,
      );
  } finally {
    await platform.stop();
  }
}

await withExpressBaseline(async (bareUrl) => {
  for (const stack of STACKS) await benchStack(stack, bareUrl);
});
