#!/usr/bin/env node
// On-demand benchmark (not a test): a bare Express baseline and the platform under the same autocannon load in one
// run, and onboarding latency. The pages in Chromium: browser.mjs.
// Prints Markdown tables for docs/performance.md. Requires `npm run build` first.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { startClusterAuth } from './cluster-auth.mjs';
import { median, onboard, startStandalone, withExpressBaseline } from './platform.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
/** Runs of the public company view measurements, each next to the bare baseline; medians are printed. */
const RUNS = Number(process.env.BENCH_RUNS || 3);

async function load(url, headers = {}) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { accept: 'application/json', ...headers },
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx - (headers['if-none-match'] ? (result['3xx'] ?? 0) : 0),
  };
}

const loadAverage = () => loadavg()[0].toFixed(1);
const rssMb = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;

/**
 * The public company view (issue 12 item 3): on the standalone platform (PGlite, every service in one process) and
 * on auth alone in cluster mode (PostgreSQL), each also revalidated with its ETag (a 304), with request lines logged
 * at info as in production. Every run measures the bare baseline first, so each ratio compares figures taken minutes
 * apart on the same (shared, loaded) machine; the load average is noted before each run.
 */
async function companyViewBenchmark(bareUrl) {
  const standalone = await startStandalone({ LOG_LEVEL: 'info' }, { stdout: 'ignore' });
  const cluster = await startClusterAuth();
  try {
    const onStandalone = await onboard(standalone, 0);
    const onCluster = await onboard(cluster, 0);
    const views = [
      ['standalone (PGlite)', `${standalone.baseUrl}/api/account/company/${onStandalone.urlIdentifier}`],
      ['cluster auth (PostgreSQL)', `${cluster.baseUrl}/api/account/company/${onCluster.urlIdentifier}`],
    ];
    const etags = await Promise.all(views.map(async ([, url]) => (await fetch(url)).headers.get('etag')));
    const rows = new Map();
    const add = (label, figures) => rows.set(label, [...(rows.get(label) ?? []), figures]);
    for (let run = 0; run < RUNS; run += 1) {
      const before = loadAverage();
      const bare = await load(bareUrl);
      add('bare Express 5 GET /hello (baseline)', { ...bare, ratio: 1, load: before });
      for (const [index, [where, url]] of views.entries()) {
        const view = await load(url);
        add(`GET /api/account/company/{id}, ${where}`, { ...view, ratio: view.rps / bare.rps, load: before });
        const revalidated = await load(url, { 'if-none-match': etags[index] });
        add(`same, If-None-Match → 304, ${where}`, {
          ...revalidated,
          ratio: revalidated.rps / bare.rps,
          load: before,
        });
      }
    }
    console.log(
      `\nPublic company view: ${RUNS} runs of ${DURATION_S} s, ${CONNECTIONS} connections, autocannon, one machine (${cpus().length} cores)\n`,
    );
    console.log('| measurement | req/s (median) | × baseline (median) | runs req/s | p50 ms | p99 ms | errors |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const [label, runs] of rows) {
      const ratios = runs.map((r) => r.ratio);
      console.log(
        `| ${label} | ${median(runs.map((r) => r.rps))} | ${median(ratios).toFixed(2)} | ${runs.map((r) => r.rps).join(', ')} | ${median(runs.map((r) => r.p50))} | ${median(runs.map((r) => r.p99))} | ${runs.reduce((n, r) => n + r.errors, 0)} |`,
      );
    }
    console.log(
      `\nLoad average (1 min) before each run: ${rows
        .values()
        .next()
        .value.map((r) => r.load)
        .join(', ')}`,
    );
    console.log(
      `RSS after the load: standalone ${rssMb(standalone.child.pid).toFixed(0)} MB, cluster auth ${rssMb(cluster.child.pid).toFixed(0)} MB`,
    );
  } finally {
    await cluster.stop();
    await standalone.stop();
  }
}

/** Onboarding latency on the standalone platform (argon2id included); rate-limited per client, so no throughput. */
async function onboardingBenchmark() {
  const platform = await startStandalone();
  try {
    const onboardings = [];
    for (let i = 0; i < 10; i += 1) onboardings.push(await onboard(platform, i));
    const sorted = onboardings.map((o) => o.elapsed).sort((a, b) => a - b);
    console.log(
      `\nOnboarding POST /api/account/company, 10 sequential: median ${sorted[5].toFixed(0)} ms, max ${sorted[9].toFixed(0)} ms (argon2id hash included)`,
    );
  } finally {
    await platform.stop();
  }
}

await withExpressBaseline(async (bareUrl) => {
  await companyViewBenchmark(bareUrl);
  await onboardingBenchmark();
});
