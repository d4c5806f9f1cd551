#!/usr/bin/env node
// Memory after a long database outage (issue 30 item 7), not a test: does the incident service give back what it took
// while PostgreSQL was unreachable? auth and incident in cluster mode (cluster.mjs), incident's database connections
// through a TCP proxy (service-kit's createTcpProxy, as the fault tests cut PostgreSQL) on a database of its own on the
// loopback server; a steady light load (BENCH_RATE requests a second, half report creations, half retrievals with the
// secret code, each from its own client address) for BENCH_WARMUP_S (180) s, then the proxy cut for BENCH_OUTAGE_S
// (180) s (the service answers 503), then restored and the load kept for BENCH_AFTER_S (1800) s. Every
// BENCH_SAMPLE_S (10) s: the incident process's RSS (/proc/<pid>/status VmRSS) and its V8 heap used and total
// (whistle_nodejs_heap_size_*_bytes on its METRICS_PORT). Prints a table by minute and a verdict: the heap's median in
// the last minute against its median in the last minute before the cut, within BENCH_TOLERANCE_MIB (5) or not.
// BENCH_HEAP_SNAPSHOTS=<folder>: V8 heap snapshots of the incident process there at the end of the warm-up, of the
// outage and of the run (--heapsnapshot-signal; each one perturbs the next samples, so off by default).
// Traffic stays on loopback; the run ends by itself. Requires `npm run build` first.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import serviceKitTesting from '@whistle/service-kit/testing';
import { startCluster } from './cluster.mjs';
import { discloserReports } from './discloser-data.mjs';
import { freePort, median, onboard } from './platform.mjs';

const { createTcpProxy } = serviceKitTesting;
const RATE = Number(process.env.BENCH_RATE || 4);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S || 180);
const OUTAGE_S = Number(process.env.BENCH_OUTAGE_S || 180);
const AFTER_S = Number(process.env.BENCH_AFTER_S || 1800);
const SAMPLE_S = Number(process.env.BENCH_SAMPLE_S || 10);
const TOLERANCE_MIB = Number(process.env.BENCH_TOLERANCE_MIB || 5);
const PAYLOADS = Number(process.env.BENCH_PAYLOADS || 100);
const SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOTS;

const MIB = 1024 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const load1 = () => loadavg()[0].toFixed(1);
let clientNumber = 0;
/** A new client address per request (X-Forwarded-For, TRUST_PROXY=1), so the per-client limits stay as configured. */
const nextClient = () => {
  clientNumber += 1;
  return `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
};

const rssMib = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;

async function heapMib(metricsUrl) {
  const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) })).text();
  const read = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1]) / MIB;
  return { used: read('whistle_nodejs_heap_size_used_bytes'), total: read('whistle_nodejs_heap_size_total_bytes') };
}

const proxy = await createTcpProxy({ host: '127.0.0.1', port: 5432 });
const metricsPort = await freePort();
const cluster = await startCluster({
  env: { TRUST_PROXY: '1', POW_FREE_REPORTS_PER_COMPANY: '100000000', LOG_LEVEL: 'warn' },
  incident: {
    env: { METRICS_PORT: String(metricsPort) },
    nodeArgs: SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${SNAPSHOTS}`] : [],
    databaseUrl(url) {
      const proxied = new URL(url);
      proxied.host = `${proxy.address.host}:${proxy.address.port}`;
      return proxied.toString();
    },
  },
});
const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
const pid = cluster.incidentPid;
let loadTimer;

async function snapshot(label) {
  if (!SNAPSHOTS) return;
  const before = new Set(await readdir(SNAPSHOTS));
  cluster.incidentChild.kill('SIGUSR2');
  for (let i = 0; i < 600; i += 1) {
    const added = (await readdir(SNAPSHOTS)).filter((name) => !before.has(name) && name.endsWith('.heapsnapshot'));
    // Written once the process answers again: its metrics port is served by the same thread.
    if (added.length && (await heapMib(metricsUrl).catch(() => undefined))) {
      console.error(`heap snapshot (${label}): ${added[0]}`);
      return;
    }
    await sleep(500);
  }
}

try {
  const company = await onboard({ baseUrl: cluster.authUrl, dataDir: cluster.dataDir }, 0);
  const view = await (await fetch(`${cluster.authUrl}/api/account/company/${company.urlIdentifier}`)).json();
  const reports = await discloserReports(company.urlIdentifier, view, PAYLOADS);
  const createUrl = `${cluster.incidentUrl}/api/incident/`;
  const retrievals = [];
  const create = async (index) => {
    const report = reports[index % reports.length];
    const response = await fetch(createUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': randomUUID(),
        'x-forwarded-for': nextClient(),
      },
      body: JSON.stringify(report.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status === 201 && retrievals.length < 1000)
      retrievals.push({ retrievalId: JSON.parse(text).retrieval_id, authToken: report.authToken });
    return response.status;
  };
  const retrieve = async (index) => {
    const { retrievalId, authToken } = retrievals[index % retrievals.length];
    const response = await fetch(
      `${cluster.incidentUrl}/api/incident/discloser?url_identifier=${company.urlIdentifier}&retrieval_id=${retrievalId}`,
      {
        headers: { accept: 'application/json', authorization: `Bearer ${authToken}`, 'x-forwarded-for': nextClient() },
        signal: AbortSignal.timeout(30_000),
      },
    );
    await response.arrayBuffer();
    return response.status;
  };
  // The incident service learns of the company from auth's event: wait until it takes a report.
  for (let i = 0; (await create(0)) !== 201; i += 1) {
    if (i > 100) throw new Error('the incident service never took a report');
    await sleep(100);
  }

  // The load: a request every 1/RATE s whatever the previous ones are doing (an outage must not slow the arrivals).
  let phase = 'warm-up';
  const answers = new Map();
  let sent = 0;
  loadTimer = setInterval(() => {
    const index = sent++;
    const request = index % 2 === 0 ? create(index) : retrieve(index);
    const key = (status) => `${phase} ${status}`;
    request.then(
      (status) => answers.set(key(status), (answers.get(key(status)) ?? 0) + 1),
      (error) => answers.set(key(error.name), (answers.get(key(error.name)) ?? 0) + 1),
    );
  }, 1000 / RATE);

  const samples = [];
  const started = performance.now();
  const sample = async () => {
    const heap = await heapMib(metricsUrl).catch(() => ({ used: NaN, total: NaN }));
    const entry = { at: (performance.now() - started) / 1000, phase, rss: rssMib(pid), ...heap, load: load1() };
    samples.push(entry);
    console.error(
      `${entry.at.toFixed(0)} s ${phase}: RSS ${entry.rss.toFixed(1)} MiB, heap used ${entry.used.toFixed(1)} / ${entry.total.toFixed(1)} MiB, load ${entry.load}`,
    );
  };
  const runFor = async (seconds) => {
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      await sample();
      await sleep(Math.min(SAMPLE_S * 1000, Math.max(0, end - performance.now())));
    }
  };

  await runFor(WARMUP_S);
  await snapshot('end of warm-up');
  phase = 'outage';
  const cutAt = performance.now();
  await proxy.cut();
  await runFor(OUTAGE_S);
  await snapshot('end of outage');
  phase = 'after';
  await proxy.restore();
  const restoredAt = performance.now();
  await runFor(AFTER_S);
  await sample();
  clearInterval(loadTimer);
  // The last requests answered before the figures are printed.
  await sleep(5000);
  await snapshot('end of run');

  const since = (sampleEntry, mark) => sampleEntry.at - (mark - started) / 1000;
  const minuteOf = (entry) =>
    entry.phase === 'warm-up'
      ? `warm-up ${Math.floor(entry.at / 60)}`
      : entry.phase === 'outage'
        ? `outage ${Math.floor(since(entry, cutAt) / 60)}`
        : `after ${Math.floor(since(entry, restoredAt) / 60)}`;
  const rows = new Map();
  for (const entry of samples) {
    const key = minuteOf(entry);
    rows.set(key, [...(rows.get(key) ?? []), entry]);
  }
  const med = (list, field) => median(list.map((entry) => entry[field]).filter((value) => !Number.isNaN(value)));
  console.log(
    `\nIncident service (cluster mode, PostgreSQL through a proxy cut ${OUTAGE_S} s), ${RATE} requests/s (creations and retrievals), a sample every ${SAMPLE_S} s; medians per minute (${new Date().toISOString()})\n`,
  );
  console.log('| minute | samples | RSS MiB | heap used MiB | heap total MiB | load avg |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [minute, list] of rows)
    console.log(
      `| ${minute} | ${list.length} | ${med(list, 'rss').toFixed(1)} | ${med(list, 'used').toFixed(1)} | ${med(list, 'total').toFixed(1)} | ${list.at(-1).load} |`,
    );
  console.log('\nAnswers by phase and status:', Object.fromEntries([...answers.entries()].sort()));

  const lastMinute = (phaseName, endAt) =>
    samples.filter((entry) => entry.phase === phaseName && entry.at >= endAt - 60 && entry.at <= endAt);
  const baseline = lastMinute('warm-up', (cutAt - started) / 1000);
  const last = lastMinute('after', samples.at(-1).at);
  const outage = samples.filter((entry) => entry.phase === 'outage');
  const peak = (field) => Math.max(...outage.map((entry) => entry[field]).filter((value) => !Number.isNaN(value)));
  const figures = (field) =>
    `baseline ${med(baseline, field).toFixed(1)}, peak in the outage ${peak(field).toFixed(1)}, last minute ${med(last, field).toFixed(1)} MiB`;
  console.log(`\nRSS: ${figures('rss')}`);
  console.log(`Heap used: ${figures('used')}`);
  const heapGap = med(last, 'used') - med(baseline, 'used');
  const rssGap = med(last, 'rss') - med(baseline, 'rss');
  console.log(
    `Verdict: the heap used is ${heapGap <= TOLERANCE_MIB ? 'back to' : 'NOT back to'} its baseline within ${TOLERANCE_MIB} MiB ` +
      `(${heapGap >= 0 ? '+' : ''}${heapGap.toFixed(1)} MiB) ${AFTER_S / 60} min after the outage; RSS ${rssGap >= 0 ? '+' : ''}${rssGap.toFixed(1)} MiB ` +
      `(${rssGap <= TOLERANCE_MIB ? 'back' : 'not back'} within ${TOLERANCE_MIB} MiB)`,
  );
} finally {
  clearInterval(loadTimer);
  await cluster.stop();
  await proxy.close();
}
