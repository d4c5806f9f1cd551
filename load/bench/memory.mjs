#!/usr/bin/env node
// Standalone memory (issue 12 item 7), not a test: resident memory (RSS) of the standalone platform on PGlite at idle
// after its first start, while BENCH_REPORTS (10,000) reports are created through the API (encrypted as the
// discloser's browser does, BENCH_CONCURRENCY at a time), after reads (case list pages, sorts and filters, the
// company view), then after a restart on the same data folder, idle and after the same reads. Each PGlite
// shared_buffers of BENCH_SHARED_BUFFERS ("128MB,32MB") runs the whole sequence in a folder of its own.
// Requires `npm run build` first.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import crypto from '@whistle/crypto';
import { onboard, startStandalone } from './platform.mjs';
import { signIn } from './staff-keys.mjs';

const { createIncidentCredentials, encryptReportFields } = crypto;
const REPORTS = Number(process.env.BENCH_REPORTS || 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
const SETTINGS = (process.env.BENCH_SHARED_BUFFERS || '128MB,32MB').split(',');

const rssMb = (pid) =>
  Math.round(Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024);
const settle = () => new Promise((resolve) => setTimeout(resolve, 3000));
const loadAverage = () => loadavg()[0].toFixed(1);

async function json(response) {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}
const post = (url, body) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** One report as the create page sends it: fresh credentials and encrypted fields each time. */
async function report(view, i) {
  const credentials = await createIncidentCredentials(view.public_key);
  return {
    url_identifier: view.url_identifier,
    category_uuids: [view.categories.find((category) => category.parent_uuid === null).uuid],
    location_uuid: view.locations[0].uuid,
    ...credentials.payload,
    fields: await encryptReportFields(credentials.incident.publicKey, {
      description: `Memory benchmark report ${i}: ${'what happened, where and when. '.repeat(8)}`,
      full_name: `Reporter ${i}`,
    }),
    report_anonymously: false,
  };
}

/** Staff reads: the case list with its sorts and filters, deep pages, and the public company view. */
async function reads(baseUrl, company) {
  const token = await signIn(baseUrl, company.email, company.password);
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const paths = ['', '?sort=created', '?sort=-category__name', '?overdue=true', '?page=50', '?page=200', '?status=NEW'];
  for (let round = 0; round < 5; round += 1)
    for (const query of paths) await json(await fetch(`${baseUrl}/api/incident/${query}`, { headers }));
  await json(await fetch(`${baseUrl}/api/account/company/${company.urlIdentifier}`));
}

async function measure(sharedBuffers) {
  const env = {
    PGLITE_SHARED_BUFFERS: sharedBuffers,
    REPORT_LIMIT_PER_CLIENT: '1000000',
    POW_FREE_REPORTS_PER_COMPANY: '1000000',
  };
  const figures = { sharedBuffers };
  let platform = await startStandalone(env);
  const { dataDir } = platform;
  try {
    await settle();
    figures.idleFirstStart = rssMb(platform.child.pid);
    const company = await onboard(platform, 0);
    const view = await json(await fetch(`${platform.baseUrl}/api/account/company/${company.urlIdentifier}`));
    const started = performance.now();
    let next = 0;
    let peak = 0;
    const worker = async () => {
      for (let i = next++; i < REPORTS; i = next++) {
        // The incident service learns of the company from auth's event; until then a report is refused as unknown.
        for (let attempt = 0; ; attempt += 1) {
          const answer = await post(`${platform.baseUrl}/api/incident/`, await report(view, i));
          if (answer.ok || attempt === 20) {
            await json(answer);
            break;
          }
          await answer.text();
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        if (i % 500 === 0) peak = Math.max(peak, rssMb(platform.child.pid));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    figures.createSeconds = Math.round((performance.now() - started) / 1000);
    figures.peakWhileCreating = peak;
    await settle();
    figures.afterCreating = rssMb(platform.child.pid);
    let readsStarted = performance.now();
    await reads(platform.baseUrl, company);
    figures.readsMs = Math.round(performance.now() - readsStarted);
    await settle();
    figures.afterReads = rssMb(platform.child.pid);

    await platform.stop({ keepData: true });
    platform = await startStandalone(env, { dataDir });
    await settle();
    figures.idleRestarted = rssMb(platform.child.pid);
    readsStarted = performance.now();
    await reads(platform.baseUrl, company);
    figures.restartedReadsMs = Math.round(performance.now() - readsStarted);
    await settle();
    figures.restartedAfterReads = rssMb(platform.child.pid);
    figures.load = loadAverage();
    return figures;
  } finally {
    await platform.stop();
  }
}

const results = [];
for (const setting of SETTINGS) {
  const before = loadAverage();
  results.push({ ...(await measure(setting)), loadBefore: before });
}
console.log(`\nStandalone RSS in MB (PGlite), ${REPORTS} reports created through the API, ${CONCURRENCY} at a time\n`);
console.log(
  '| shared_buffers | idle, first start | creating (peak) | after creating | after reads | restarted, idle | restarted, after reads | creation s | 36 reads ms (first, restarted) | load avg before → after |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of results)
  console.log(
    `| ${r.sharedBuffers} | ${r.idleFirstStart} | ${r.peakWhileCreating} | ${r.afterCreating} | ${r.afterReads} | ${r.idleRestarted} | ${r.restartedAfterReads} | ${r.createSeconds} | ${r.readsMs}, ${r.restartedReadsMs} | ${r.loadBefore} → ${r.load} |`,
  );
