#!/usr/bin/env node
// On-demand browser benchmark (not a test): the staff case pages in Chromium against the built standalone
// platform on PostgreSQL, with one tenant of BENCH_EXPORT_CASES cases (default 10,000) seeded by case-seed.mjs.
//
// 1. Opening a case with 10 report fields, 20 messages (10 from the reporter, 10 from staff) and 3 files, every
//    one of them encrypted as the browsers encrypt them: from the click on its link in the list (the staff app
//    already loaded) and from a full page load of its address, to everything decrypted and on the page. Each
//    text carries a token; a MutationObserver in the page notes (performance.now()) when the last token appears,
//    so nothing is polled from here. Also: from the case's last API answer (Resource Timing) to that moment
//    (decryption of what is left, file names included, and React's render). BENCH_DETAIL_RUNS runs (12).
// 2. 'Export CSV' on the list of the whole tenant: from the click to the 'Exported … cases.' notice (the file
//    handed to the browser), the download checked (every case a row, every Identity decrypted), and the longest
//    main-thread task meanwhile (PerformanceObserver 'longtask'), so whether the page stayed responsive.
//    BENCH_EXPORT_RUNS runs (3).
// Requires `npm run build` first and a PostgreSQL server (BENCH_DATABASE_URL, see case-seed.mjs).
import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { median } from './platform.mjs';
import { sizeTenant } from './tenant-size.mjs';

const EXPORT_CASES = Number(process.env.BENCH_EXPORT_CASES || 10_000);
const DETAIL_RUNS = Number(process.env.BENCH_DETAIL_RUNS || 12);
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT_RUNS || 3);
// The tenant holds the templates, their clones and the case opened below: EXPORT_CASES in all.
sizeTenant(EXPORT_CASES, 1);
const { seededTenant } = await import('./case-seed.mjs');
const { CASE_FILES, CASE_MESSAGES, CASE_TOKENS, makeCase } = await import('./bench-case.mjs');

/** Runs in every page before its scripts: when all tokens are first shown, the last click, the long tasks. */
function instrument(tokens) {
  const bench = { shown: undefined, exported: undefined, lastClick: undefined, longTasks: [] };
  window.__bench = bench;
  const check = () => {
    const text = document.body?.textContent ?? '';
    if (bench.shown === undefined && tokens.every((token) => text.includes(token))) bench.shown = performance.now();
    if (bench.exported === undefined && /Exported [\d,]+ cases?\./.test(text)) bench.exported = performance.now();
    const progress = document.querySelector('progress');
    if (progress && bench.firstProgress === undefined && progress.value > 0) bench.firstProgress = performance.now();
  };
  bench.forget = () => {
    bench.shown = undefined;
    bench.exported = undefined;
    bench.firstProgress = undefined;
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['value'],
  });
  document.addEventListener('click', () => (bench.lastClick = performance.now()), true);
  // Every WebCrypto call of the page (start, end): how long decryption was under way, whatever overlaps.
  bench.crypto = [];
  for (const method of ['decrypt', 'deriveBits', 'deriveKey', 'importKey', 'unwrapKey']) {
    const original = SubtleCrypto.prototype[method];
    SubtleCrypto.prototype[method] = function (...args) {
      const start = performance.now();
      const done = () => bench.crypto.push([start, performance.now()]);
      const result = original.apply(this, args);
      result.then(done, done);
      return result;
    };
  }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/** When the case's API answers ended (Resource Timing, page clock): its view, and the last of them. */
const caseResponses = (page, uuid) =>
  page.evaluate((id) => {
    const ours = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/incident/') && entry.name.includes(id));
    const fileMeta = performance
      .getEntriesByType('resource')
      .filter((entry) => /\/api\/incident\/file\//.test(entry.name));
    const view = ours.filter((entry) => new URL(entry.name).pathname.replace(/\/$/, '').endsWith(id)).at(-1);
    return {
      view: view?.responseEnd ?? NaN,
      last: Math.max(...[...ours, ...fileMeta].map((entry) => entry.responseEnd)),
    };
  }, uuid);

const readBench = (page) => page.evaluate(() => window.__bench);
/** Milliseconds in (from, to] during which at least one WebCrypto call was under way. */
function cryptoBusy(bench, from, to) {
  const intervals = bench.crypto.filter(([start, end]) => start >= from && end <= to).sort((a, b) => a[0] - b[0]);
  let busy = 0;
  let reached = -Infinity;
  for (const [start, end] of intervals) {
    if (end <= reached) continue;
    busy += end - Math.max(start, reached);
    reached = end;
  }
  return busy;
}
const longestSince = (bench, since, until = Infinity) =>
  Math.max(0, ...bench.longTasks.filter((task) => task.start >= since && task.start <= until).map((t) => t.duration));
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const summary = (values) =>
  `median ${ms(median(values))} ms, p95 ${ms(percentile(values, 95))} ms (min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))}; n=${values.length})`;

async function signedInPage(browser, { baseUrl, company }) {
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(instrument, CASE_TOKENS);
  const page = await context.newPage();
  await page.goto(`${baseUrl}/company/login`);
  await page.getByLabel('Email').fill(company.email);
  await page.getByLabel('Password').fill(company.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor({ timeout: 60_000 });
  return { context, page };
}

/** From the list (the staff app loaded): the click on the case's link → everything decrypted and shown. */
async function openFromList(page, baseUrl, uuid) {
  await page.goto(`${baseUrl}/company/incidents?sort=-created`);
  const link = page.locator(`a[href$="/company/incidents/${uuid}"]`).first();
  await link.waitFor({ timeout: 60_000 });
  await page.evaluate(() => window.__bench.forget());
  await link.click();
  await page.waitForFunction(() => window.__bench.shown !== undefined, undefined, { timeout: 60_000 });
  const bench = await readBench(page);
  const responses = await caseResponses(page, uuid);
  return {
    total: bench.shown - bench.lastClick,
    afterView: bench.shown - responses.view,
    afterLast: bench.shown - responses.last,
    crypto: cryptoBusy(bench, bench.lastClick, bench.shown),
    longestTask: longestSince(bench, bench.lastClick, bench.shown),
  };
}

/** A full load of the case's address (session restored from storage, company key unlocked again). */
async function openByAddress(page, baseUrl, uuid) {
  await page.goto(`${baseUrl}/company/incidents/${uuid}`);
  await page.waitForFunction(() => window.__bench.shown !== undefined, undefined, { timeout: 60_000 });
  const bench = await readBench(page);
  const responses = await caseResponses(page, uuid);
  return {
    total: bench.shown,
    afterView: bench.shown - responses.view,
    afterLast: bench.shown - responses.last,
    // The company key's unlocking (at every page load) included, then the case's alone.
    crypto: cryptoBusy(bench, 0, bench.shown),
    caseCrypto: cryptoBusy(bench, responses.view, bench.shown),
  };
}

/** 'Export CSV' of the whole list: click → notice, the longest task meanwhile, the file checked. */
async function exportAll(page, baseUrl, expected) {
  await page.goto(`${baseUrl}/company/incidents`);
  const button = page.getByRole('button', { name: 'Export CSV' });
  await button.waitFor({ timeout: 60_000 });
  await page.evaluate(() => window.__bench.forget());
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 300_000 }), button.click()]);
  await page.waitForFunction(() => window.__bench.exported !== undefined, undefined, { timeout: 60_000 });
  const bench = await readBench(page);
  const csv = await readFile(await download.path(), 'utf8');
  const rows = csv.trim().split('\r\n').slice(1);
  const unnamed = rows.filter((row) => !/,(Reporter \d|Jane bench-field-full_name),/.test(row)).length;
  if (rows.length !== expected || unnamed > 0)
    throw new Error(`The export has ${rows.length} rows (${expected} expected), ${unnamed} without a decrypted name`);
  const during = bench.longTasks.filter((task) => task.start >= bench.lastClick && task.start <= bench.exported);
  return {
    total: bench.exported - bench.lastClick,
    firstProgress: bench.firstProgress - bench.lastClick,
    longestTask: Math.max(0, ...during.map((task) => task.duration)),
    longTasks: during.length,
    bytes: Buffer.byteLength(csv),
  };
}

const started = new Date();
const loadBefore = loadavg();
const tenant = await seededTenant();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'],
});
try {
  const uuid = await makeCase(tenant);
  const { rows } = await tenant.db.query('select count(*)::int as cases from incident.incident');
  const { context, page } = await signedInPage(browser, tenant);

  await openFromList(page, tenant.baseUrl, uuid); // the case page's code in the cache
  const fromList = [];
  for (let run = 0; run < DETAIL_RUNS; run += 1) fromList.push(await openFromList(page, tenant.baseUrl, uuid));
  const byAddress = [];
  for (let run = 0; run < DETAIL_RUNS; run += 1) byAddress.push(await openByAddress(page, tenant.baseUrl, uuid));
  const exports = [];
  for (let run = 0; run < EXPORT_RUNS; run += 1) exports.push(await exportAll(page, tenant.baseUrl, rows[0].cases));
  await context.close();

  const pick = (results, key) => results.map((result) => result[key]);
  console.log(
    `\n${rows[0].cases} cases in the tenant, seeded in ${tenant.seconds.toFixed(1)} s; standalone platform on PostgreSQL; Chromium ${browser.version()} headless; ${cpus().length} cores; load average ${loadBefore.map((v) => v.toFixed(1)).join(' ')} at the start (${started.toISOString()}), ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')} at the end\n`,
  );
  console.log(`Case with 10 fields, ${CASE_MESSAGES} messages, ${CASE_FILES} files:`);
  console.log(`- click in the list → all decrypted and shown: ${summary(pick(fromList, 'total'))}`);
  console.log(`  - from the case view's answer: ${summary(pick(fromList, 'afterView'))}`);
  console.log(`  - from the last answer (file names): ${summary(pick(fromList, 'afterLast'))}`);
  console.log(`  - WebCrypto under way (wall time, overlaps counted once): ${summary(pick(fromList, 'crypto'))}`);
  console.log(`  - longest main-thread task: ${summary(pick(fromList, 'longestTask'))}`);
  console.log(`- full load of its address → all decrypted and shown: ${summary(pick(byAddress, 'total'))}`);
  console.log(`  - from the case view's answer: ${summary(pick(byAddress, 'afterView'))}`);
  console.log(`  - from the last answer: ${summary(pick(byAddress, 'afterLast'))}`);
  console.log(`  - WebCrypto under way from the case view's answer: ${summary(pick(byAddress, 'caseCrypto'))}`);
  console.log(
    `  - WebCrypto under way since navigation (the key unlocked again): ${summary(pick(byAddress, 'crypto'))}`,
  );
  console.log(`\nExport CSV of ${rows[0].cases} cases (every row checked):`);
  for (const [run, result] of exports.entries())
    console.log(
      `- run ${run + 1}: click → file ${ms(result.total)} ms (first ${50} decrypted after ${ms(result.firstProgress)} ms); ${(result.bytes / 1024).toFixed(0)} KB; longest main-thread task ${ms(result.longestTask)} ms (${result.longTasks} tasks over 50 ms)`,
    );
} finally {
  await browser.close();
  await tenant.close();
}
