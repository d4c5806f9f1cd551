#!/usr/bin/env node
// On-demand benchmark (not a test): the time the report's proof of work adds in Chromium, in a Web Worker as the
// discloser page runs it (@whistle/crypto's solveProofOfWork, compiled as is, with hash-wasm's own build), at the
// difficulty of a normal volume (0), at the first step of a flood (POW_BASE_DIFFICULTY, 8) and at the most a flood
// can raise it to (POW_MAX_DIFFICULTY, 14), with the CPU at 1× and 4× slower (DevTools
// Emulation.setCPUThrottlingRate; Lighthouse's mobile profile is 4×). A solve takes a geometric number of tries
// (2^difficulty expected), so difficulty 8 is solved BENCH_POW_RUNS times (20) on fresh challenges, and the cost of
// one try (all tries of those runs) gives the expected time at 14, which one run would only sample. The page's
// longest task while the worker works shows whether the discloser's page stays responsive.
// Chromium throttles pages only ("Operation is only supported for pages, not workers" on a worker's session; the
// page's rate reaches its worker only in part), so the cost of one try is also measured on the page's own thread,
// which the rate does slow: that is the figure a 4× slower phone would see in its worker.
// No build needed: node load/bench/proof-of-work.mjs (CHROMIUM=/usr/bin/chromium by default).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFileSync } from '@swc/core';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.BENCH_POW_RUNS || 20);
const BASE = 8;
const MAX = 14;

/** The crypto package's modules as ES modules, their imports pointed at what this server serves. */
function compiled(name) {
  const { code } = transformFileSync(join(root, 'packages/crypto/src', `${name}.ts`), {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
  });
  return code.replace(/from '(\.\/[a-z-]+)'/g, "from '$1.js'").replace(/from 'hash-wasm'/g, "from './hash-wasm.js'");
}
const require = createRequire(join(root, 'packages/crypto/package.json'));
const files = {
  '/proof-of-work.js': compiled('proof-of-work'),
  '/proof-of-work-core.js': compiled('proof-of-work-core'),
  '/hash-wasm.js': readFileSync(join(dirname(require.resolve('hash-wasm')), 'index.esm.js'), 'utf8'),
  '/worker.js': `
    import { solveProofOfWork } from './proof-of-work.js';
    onmessage = async ({ data }) => {
      const started = performance.now();
      const nonce = await solveProofOfWork(data.challenge, data.difficulty);
      postMessage({ ms: performance.now() - started, tries: Number(nonce) + 1 });
    };`,
  '/': `<!doctype html><meta charset="utf-8"><title>proof of work</title><script type="module">
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
    const worker = new Worker('/worker.js', { type: 'module' });
    window.solve = (challenge, difficulty) => new Promise((resolve) => {
      window.longTasks.length = 0;
      worker.onmessage = ({ data }) => resolve({ ...data, longestTask: Math.max(0, ...window.longTasks) });
      worker.postMessage({ challenge, difficulty });
    });
    const { solveProofOfWork } = await import('/proof-of-work.js');
    window.solveHere = async (challenge, difficulty) => {
      const started = performance.now();
      const nonce = await solveProofOfWork(challenge, difficulty);
      return { ms: performance.now() - started, tries: Number(nonce) + 1 };
    };
    window.ready = true;
  </script>`,
};
// The discloser pages' CSP: WebAssembly may be compiled, nothing else evaluated.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline'";
const server = createServer((req, res) => {
  const body = files[req.url];
  if (body === undefined) return res.writeHead(404).end();
  res.writeHead(200, {
    'content-type': req.url === '/' ? 'text/html' : 'text/javascript',
    'content-security-policy': CSP,
  });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const challenge = () => `${crypto.randomUUID()}.bench`;
const rows = [];
try {
  for (const rate of [1, 4]) {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto(origin);
    await page.waitForFunction(() => window.ready);
    const solve = (difficulty) => page.evaluate(([c, d]) => window.solve(c, d), [challenge(), difficulty]);
    const normal = await solve(0);
    await solve(4); // warm-up: the WebAssembly module compiles on the first try
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await solve(BASE));
    const perTryOf = (solves) => solves.reduce((sum, r) => sum + r.ms, 0) / solves.reduce((sum, r) => sum + r.tries, 0);
    const workerTry = perTryOf(runs);
    const here = [];
    for (let run = 0; run < RUNS; run += 1)
      here.push(await page.evaluate(([c, d]) => window.solveHere(c, d), [challenge(), 6]));
    const pageTry = perTryOf(here);
    // The slower of the two: the worker's own where the rate reaches it, the throttled page thread's otherwise.
    const perTry = Math.max(workerTry, pageTry);
    const ms = runs.map((r) => r.ms);
    rows.push({
      cpu: `${rate}×`,
      'normal (0 bits)': `${normal.ms.toFixed(1)} ms`,
      'try (worker)': `${workerTry.toFixed(2)} ms`,
      'try (page thread)': `${pageTry.toFixed(2)} ms`,
      [`${BASE} bits worker median`]: `${(quantile(ms, 0.5) / 1000).toFixed(2)} s`,
      [`${BASE} bits worker p90`]: `${(quantile(ms, 0.9) / 1000).toFixed(2)} s`,
      [`${BASE} bits expected`]: `${((2 ** BASE * perTry) / 1000).toFixed(2)} s`,
      [`${MAX} bits expected`]: `${((2 ** MAX * perTry) / 1000).toFixed(0)} s`,
      [`${MAX} bits p90`]: `${((2 ** MAX * perTry * Math.LN10) / 1000).toFixed(0)} s`,
      'page longest task': `${Math.max(...runs.map((r) => r.longestTask)).toFixed(0)} ms`,
    });
    await page.close();
  }
  console.table(rows);
} finally {
  await browser.close();
  server.close();
}
