// Lighthouse's CLI from npm, run on one address, and the figures the benchmarks print from its JSON report
// (bench:lighthouse, bench:lighthouse-staff). Debian's Chromium unless CHROME_PATH says otherwise.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { median, root } from './platform.mjs';

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const LIGHTHOUSE = path.join(root, 'node_modules', 'lighthouse', 'cli', 'index.js');
const run = promisify(execFile);

/** One Lighthouse run of `url` (the CLI, with `args`): its performance figures from the JSON report. */
export async function lighthouseFigures(url, args = [], attempt = 1) {
  // The CLI exits 1 on a runtime error (now and then NO_NAVSTART, a trace without its navigation): run it again.
  const { stdout } = await run(
    process.execPath,
    [LIGHTHOUSE, url, '--only-categories=performance', '--output=json', '--output-path=stdout', '--quiet', ...args],
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
    if (attempt < 3) return lighthouseFigures(url, args, attempt + 1);
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

/**
 * `runs` measured runs of `url` after one unmeasured (the platform's first answers — its caches, the files' first
 * read — are not a visitor's): the medians, each run's LCP, the last run's LCP element. Shown as it is measured.
 */
export async function measurePage(path, url, measure, runs) {
  await measure(url);
  const figures = [];
  for (let i = 0; i < runs; i += 1) figures.push(await measure(url));
  const of = (key) => median(figures.map((run) => run[key]));
  const row = {
    path,
    performance: of('performance'),
    fcp: of('fcp'),
    lcp: of('lcp'),
    tbt: of('tbt'),
    cls: of('cls'),
    bytes: of('bytes'),
    requests: of('requests'),
    lcps: figures.map((run) => Math.round(run.lcp)).join(', '),
    lcpElement: figures.at(-1).lcpElement,
  };
  console.error(
    `${path}: performance ${row.performance}, LCP ${Math.round(row.lcp)} ms (runs ${row.lcps}), FCP ${Math.round(row.fcp)} ms, ` +
      `TBT ${Math.round(row.tbt)} ms, CLS ${row.cls.toFixed(3)}; LCP element ${row.lcpElement}`,
  );
  return row;
}

/** The table docs/performance.md carries. */
export function printFigures(rows) {
  console.log('| page | performance | FCP | LCP | TBT | CLS | bytes | requests | LCP runs (ms) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    console.log(
      `| \`${row.path}\` | ${row.performance} | ${seconds(row.fcp)} | ${seconds(row.lcp)} | ${Math.round(row.tbt)} ms | ` +
        `${row.cls.toFixed(3)} | ${(row.bytes / 1024).toFixed(0)} KiB | ${row.requests} | ${row.lcps} |`,
    );
  }
}

export const loadAverages = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
