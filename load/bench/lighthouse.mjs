#!/usr/bin/env node
// On-demand Lighthouse benchmark (not a test): the discloser's pages and the staff login page on Lighthouse's
// default mobile profile (simulated slow 4G: 150 ms round trip, 1.6 Mbit/s; CPU 4× slower), against the built
// standalone platform with one onboarded company. Each run is a fresh Chromium (empty cache: a first visit);
// the table holds the medians of BENCH_RUNS (5) runs per page. Lighthouse from npm, Debian's Chromium
// (CHROME_PATH, default /usr/bin/chromium). Requires `npm run build` first.
// BENCH_PAGES picks pages (landing,create,success,review,login); BENCH_BASE_URL + BENCH_COMPANY measure a
// platform already running instead of starting one.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { median, onboard, root, startStandalone } from './platform.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu';
const LIGHTHOUSE = path.join(root, 'node_modules', 'lighthouse', 'cli', 'index.js');

/**
 * The pages, by the address a discloser opens. Lighthouse measures navigations only: the success and review pages
 * are reached in the page (a report sent, a code posted) and their state lives in the page's memory, so opened by
 * their address they load their route's chunk and go back to the landing page. That load is what is measured for
 * them; bench:browser times them in the page.
 */
const PAGES = {
  landing: (company) => `/disclose/${company}`,
  create: (company) => `/disclose/${company}/create`,
  success: (company) => `/disclose/${company}/success`,
  review: (company) => `/disclose/${company}/review`,
  login: () => '/company/login',
};

const run = promisify(execFile);

/** One Lighthouse run of `url`: its performance figures from the JSON report. */
async function measure(url, attempt = 1) {
  // The CLI exits 1 on a runtime error (now and then NO_NAVSTART, a trace without its navigation): run it again.
  const { stdout } = await run(
    process.execPath,
    [
      LIGHTHOUSE,
      url,
      '--only-categories=performance',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--chrome-flags=${CHROME_FLAGS}`,
    ],
    { env: { ...process.env, CHROME_PATH }, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error) => ({ stdout: error.stdout || '{}' }));
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    report = {}; // cut short: as a runtime error
  }
  if (report.runtimeError || !report.categories) {
    const reason = report.runtimeError?.code ?? 'no report';
    if (attempt < 3) return measure(url, attempt + 1);
    throw new Error(`${url}: ${reason}, ${attempt} times`);
  }
  const audit = (id) => report.audits[id]?.numericValue ?? NaN;
  return {
    performance: Math.round((report.categories.performance.score ?? NaN) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    bytes: audit('total-byte-weight'),
    requests: report.audits['network-requests']?.details?.items?.length ?? NaN,
    lcpElement: report.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet,
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

const platform = process.env.BENCH_BASE_URL ? undefined : await startStandalone({}, { stdout: 'ignore' });
try {
  const baseUrl = process.env.BENCH_BASE_URL ?? platform.baseUrl;
  const company = process.env.BENCH_COMPANY ?? (await onboard(platform, 0)).urlIdentifier;
  const names = (process.env.BENCH_PAGES || Object.keys(PAGES).join(',')).split(',');
  console.log(`Lighthouse mobile, ${RUNS} runs a page, ${baseUrl}, load average before: ${load()}`);
  const rows = [];
  for (const name of names) {
    const url = `${baseUrl}${PAGES[name](company)}`;
    // Once unmeasured: the platform's first answers (its caches, the files' first read) are not a discloser's.
    await measure(url);
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await measure(url));
    const of = (key) => median(runs.map((figures) => figures[key]));
    rows.push({
      name,
      path: PAGES[name]('{id}'),
      performance: of('performance'),
      fcp: of('fcp'),
      lcp: of('lcp'),
      tbt: of('tbt'),
      cls: of('cls'),
      bytes: of('bytes'),
      requests: of('requests'),
      lcps: runs.map((figures) => Math.round(figures.lcp)).join(', '),
      lcpElement: runs.at(-1).lcpElement,
    });
    const row = rows.at(-1);
    console.error(
      `${name}: performance ${row.performance}, LCP ${Math.round(row.lcp)} ms (runs ${row.lcps}), FCP ${Math.round(row.fcp)} ms, ` +
        `TBT ${Math.round(row.tbt)} ms, CLS ${row.cls.toFixed(3)}; LCP element ${row.lcpElement}`,
    );
  }
  console.log('| page | performance | FCP | LCP | TBT | CLS | bytes | requests | LCP runs (ms) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    console.log(
      `| \`${row.path}\` | ${row.performance} | ${seconds(row.fcp)} | ${seconds(row.lcp)} | ${Math.round(row.tbt)} ms | ` +
        `${row.cls.toFixed(3)} | ${(row.bytes / 1024).toFixed(0)} KiB | ${row.requests} | ${row.lcps} |`,
    );
  }
  console.log(`load average after: ${load()}; ${new Date().toISOString()}`);
} finally {
  await platform?.stop();
}
