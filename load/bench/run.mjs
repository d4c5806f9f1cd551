#!/usr/bin/env node
// On-demand benchmark (not a test): a bare Express baseline and the standalone platform under the same
// autocannon load in one run, and onboarding latency. The pages in Chromium: browser.mjs.
// Prints a Markdown table for docs/performance.md. Requires `npm run build` first.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import express from 'express';
import { freePort, onboard, startStandalone } from './platform.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);

async function load(url) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { accept: 'application/json' },
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const baselinePort = await freePort();
const baseline = express()
  .get('/hello', (_req, res) => res.json({ hello: 'world' }))
  .listen(baselinePort, '127.0.0.1');
const platform = await startStandalone();
try {
  const onboardings = [];
  for (let i = 0; i < 10; i += 1) onboardings.push(await onboard(platform.baseUrl, i));
  const { urlIdentifier } = onboardings[0];
  const bare = await load(`http://127.0.0.1:${baselinePort}/hello`);
  const view = await load(`${platform.baseUrl}/api/account/company/${urlIdentifier}`);
  const rss = Number(readFileSync(`/proc/${platform.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
  const sorted = onboardings.map((o) => o.elapsed).sort((a, b) => a - b);

  console.log(
    `\n${DURATION_S} s per run, ${CONNECTIONS} connections, autocannon, one machine (${cpus().length} cores)\n`,
  );
  console.log('| measurement | req/s | p50 ms | p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(`| bare Express 5 GET /hello (baseline) | ${bare.rps} | ${bare.p50} | ${bare.p99} | ${bare.errors} |`);
  console.log(`| GET /api/account/company/{id} (PGlite) | ${view.rps} | ${view.p50} | ${view.p99} | ${view.errors} |`);
  console.log(
    `\nOnboarding POST /api/account/company, 10 sequential: median ${sorted[5].toFixed(0)} ms, max ${sorted[9].toFixed(0)} ms (argon2id hash included)`,
  );
  console.log(`Standalone RSS after the load: ${rss.toFixed(0)} MB`);
} finally {
  baseline.close();
  await platform.stop();
}
