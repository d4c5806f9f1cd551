#!/usr/bin/env node
// On-demand browser benchmark (not a test): staff sign-in with the password derivation (issue 21, "Budgets":
// ≤ 600 ms on a laptop, ≤ 1.5 s on Lighthouse's mobile CPU throttling), in Chromium, as the user gets it:
// from the click on 'Log in' to the incidents page shown with the keys unlocked — the list's heading on screen and
// the reporter's name of the tenant's one named case decrypted in it (which needs the person's keys opened with the
// unlock key, then the company key opened from their grant). Measured separately: the derivation as the page runs
// it (Argon2id in hash-wasm's WebAssembly, then HKDF in WebCrypto) — the gap between the salt's answer and the
// token's request in Resource Timing, where the page does nothing else — and, inside it, the WebCrypto time (HKDF).
// Also noted: when the keyring kept the unlocked keys in IndexedDB (just before its state turns 'unlocked').
// And how long keeping the pending unlock key for a reload took (IndexedDB, before the token is written).
// Times are read in the page (performance.now(), page clock), nothing polled from here.
//
// CPU profiles (CDP Emulation.setCPUThrottlingRate): BENCH_CPU_RATES (1,4: a laptop, Lighthouse's mobile CPU);
// network unthrottled (loopback). BENCH_RUNS (7) runs each, a fresh browser context per run (empty HTTP cache and
// IndexedDB: the first sign-in in a browser), after one unmeasured warm-up run per profile.
// Then Argon2id alone at other settings than the table's, same throttling (kdfGrid below).
// CDP's throttling slows the page's main thread, not its workers (the derivation's): BENCH_CGROUP (cgroup.mjs) runs
// all of Chromium under a CPU limit instead, e.g. BENCH_CGROUP=1:25 BENCH_CPU_RATES=1 (one core 4× slower).
// Platform: the built standalone one on its embedded defaults (PGlite; `npm run build` first), onboarded here with
// one named case; or BENCH_BASE_URL with BENCH_EMAIL (the password read from standard input, never the command
// line) and BENCH_SHOWN_TEXT, a text of the first list page that only shows decrypted (e.g. a reporter's name;
// without it, done = heading shown and keys kept).
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import crypto from '@whistle/crypto';
import { cgroupProfile, limitedExecutable } from './cgroup.mjs';
import { median, onboard, startStandalone } from './platform.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 7);
const RATES = (process.env.BENCH_CPU_RATES || '1,4').split(',').map(Number);
const BUDGETS = { 1: 600, 4: 1500 };
/**
 * How long the person takes between the login page shown and the click (BENCH_TYPING_MS, 0 by default: a click at
 * once, the worst case). A person typing an address and a password takes seconds; what the page does meanwhile
 * (its preloads) is off the path only if this leaves it the time.
 */
const TYPING_MS = Number(process.env.BENCH_TYPING_MS || 0);
const NAME_TOKEN = 'Jane bench-sign-in-name';
const { createIncidentCredentials, encryptReportFields } = crypto;
/**
 * Argon2id alone in a blank page at other parameters than the table's (BENCH_KDF_GRID=0 skips it): what a change of
 * PARAMS.v2.kdfs would give, measured rather than estimated. hash-wasm's own build, the one the page bundles.
 */
const KDF_GRID = process.env.BENCH_KDF_GRID === '0' ? [] : ['64:3', '64:2', '32:2', '64:1'];
const KDF_RUNS = Number(process.env.BENCH_KDF_RUNS || 5);

const json = async (response) => {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
};

/** Runs in every page before its scripts: the click, the list shown, the name decrypted, the keys kept, WebCrypto. */
function instrument(shownText) {
  performance.setResourceTimingBufferSize(5000);
  const bench = {
    lastClick: undefined,
    listed: undefined,
    decrypted: undefined,
    kept: undefined,
    pendingKept: undefined,
    crypto: [],
  };
  window.__bench = bench;
  const check = () => {
    if (bench.lastClick === undefined) return;
    const heading = [...document.querySelectorAll('h1')].some((h1) => h1.textContent.trim() === 'Incidents');
    if (bench.listed === undefined && heading) bench.listed = performance.now();
    if (bench.decrypted === undefined && shownText && document.body.textContent.includes(shownText))
      bench.decrypted = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  document.addEventListener('click', () => (bench.lastClick ??= performance.now()), true);
  // The keyring keeps the unlocked keys (store 'unlocked' of 'whistle-keys') right before its state turns unlocked.
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    const request = put.apply(this, args);
    if (this.name === 'unlocked')
      this.transaction.addEventListener('complete', () => (bench.kept ??= performance.now()));
    // The unlock key kept for a reload (store 'pending'), before the token is written: its cost is on the path.
    const start = performance.now();
    if (this.name === 'pending')
      this.transaction.addEventListener('complete', () => (bench.pendingKept ??= performance.now() - start));
    return request;
  };
  for (const method of ['deriveBits', 'deriveKey', 'importKey', 'decrypt', 'unwrapKey']) {
    const original = SubtleCrypto.prototype[method];
    SubtleCrypto.prototype[method] = function (...args) {
      const start = performance.now();
      const done = () => bench.crypto.push([start, performance.now()]);
      const result = original.apply(this, args);
      result.then(done, done);
      return result;
    };
  }
}

/** Milliseconds in [from, to] during which at least one WebCrypto call was under way. */
function cryptoBusy(intervals, from, to) {
  let busy = 0;
  let reached = -Infinity;
  for (const [start, end] of intervals.filter(([s, e]) => s >= from && e <= to).sort((a, b) => a[0] - b[0])) {
    if (end <= reached) continue;
    busy += end - Math.max(start, reached);
    reached = end;
  }
  return busy;
}

/** The onboarded admin, and one named report so the list has a name to decrypt. */
async function standaloneAccount() {
  const platform = await startStandalone({ LOG_LEVEL: 'warn' }, { stdout: 'ignore' });
  const company = await onboard(platform, 0);
  const view = await json(await fetch(`${platform.baseUrl}/api/account/company/${company.urlIdentifier}`));
  const credentials = await createIncidentCredentials(view.public_key);
  const body = {
    url_identifier: view.url_identifier,
    category_uuids: [view.categories.find((category) => category.parent_uuid === null).uuid],
    location_uuid: view.locations[0].uuid,
    ...credentials.payload,
    fields: await encryptReportFields(credentials.incident.publicKey, {
      full_name: NAME_TOKEN,
      can_contact: 'no',
      description: 'Invoices paid twice to a shell company.',
      date: '2026-10-01',
    }),
    report_anonymously: false,
  };
  // The incident side learns of the company from auth's event: a moment after the confirmation.
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${platform.baseUrl}/api/incident/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.ok) break;
    if (attempt === 50) await json(response);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl: platform.baseUrl,
    email: company.email,
    password: company.password,
    shownText: NAME_TOKEN,
    describe: 'standalone platform (PGlite, embedded defaults), one named case',
    stop: () => platform.stop(),
  };
}

async function givenAccount(baseUrl) {
  if (!process.env.BENCH_EMAIL) throw new Error('BENCH_BASE_URL needs BENCH_EMAIL (and the password on stdin)');
  let password = '';
  for await (const chunk of process.stdin) password += chunk;
  return {
    baseUrl: baseUrl.replace(/\/$/, ''),
    email: process.env.BENCH_EMAIL,
    password: password.replace(/\r?\n$/, ''),
    shownText: process.env.BENCH_SHOWN_TEXT,
    describe: baseUrl,
    stop: async () => undefined,
  };
}

async function signInOnce(browser, account, rate) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(instrument, account.shownText);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto(`${account.baseUrl}/company/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    if (TYPING_MS) await page.waitForTimeout(TYPING_MS);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForFunction(
      (wantsText) =>
        window.__bench.listed !== undefined &&
        window.__bench.kept !== undefined &&
        (!wantsText || window.__bench.decrypted !== undefined),
      Boolean(account.shownText),
      { timeout: 120_000, polling: 100 },
    );
    const { bench, entries } = await page.evaluate(() => ({
      bench: window.__bench,
      entries: performance
        .getEntriesByType('resource')
        .map(({ name, startTime, responseEnd }) => ({ path: new URL(name).pathname, startTime, responseEnd })),
    }));
    const salt = entries.find((entry) => entry.path === '/api/account/token/salt');
    const token = entries.find((entry) => entry.path === '/api/account/token');
    if (!salt || !token) throw new Error('No salt or token request in Resource Timing');
    const done = Math.max(bench.listed, bench.kept, bench.decrypted ?? 0);
    // Code, translations and styles the path still fetched after the click (what preloading takes off it).
    const fetchedAfter = entries.filter(
      (entry) => entry.startTime > bench.lastClick && entry.startTime < done && !entry.path.startsWith('/api/'),
    );
    return {
      total: done - bench.lastClick,
      derivation: token.startTime - salt.responseEnd,
      hkdf: cryptoBusy(bench.crypto, salt.responseEnd, token.startTime),
      beforeSalt: salt.startTime - bench.lastClick,
      // The server hashes the authentication secret again (argon2id in auth): its share of the wait.
      tokenTrip: token.responseEnd - token.startTime,
      afterToken: done - token.responseEnd,
      kept: bench.kept - bench.lastClick,
      listed: bench.listed - bench.lastClick,
      pendingKept: bench.pendingKept,
      filesAfterClick: fetchedAfter.length,
      filesAfterClickPaths: fetchedAfter.map((entry) => entry.path),
    };
  } finally {
    await context.close();
  }
}

/** Argon2id (hash-wasm) timed in a blank page at `rate`, for each `MiB:passes` of the grid: one warm-up, then runs. */
async function kdfGrid(browser, rate) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.setContent('<!doctype html><title>kdf</title>');
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('hash-wasm/dist/argon2.umd.min.js') });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const results = {};
    for (const setting of KDF_GRID) {
      const [mib, passes] = setting.split(':').map(Number);
      results[setting] = await page.evaluate(
        async ({ mib, passes, runs }) => {
          const times = [];
          for (let run = 0; run <= runs; run += 1) {
            const start = performance.now();
            await window.hashwasm.argon2id({
              password: 'a long enough password',
              salt: crypto.getRandomValues(new Uint8Array(16)),
              parallelism: 1,
              iterations: passes,
              memorySize: mib * 1024,
              hashLength: 32,
              outputType: 'binary',
            });
            if (run > 0) times.push(performance.now() - start);
          }
          return times;
        },
        { mib, passes, runs: KDF_RUNS },
      );
    }
    return results;
  } finally {
    await context.close();
  }
}

const ms = (value) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const medMax = (values) => `${ms(median(values))} / ${ms(Math.max(...values))}`;

const account = process.env.BENCH_BASE_URL ? await givenAccount(process.env.BENCH_BASE_URL) : await standaloneAccount();
const CGROUP = cgroupProfile();
const limit = CGROUP && limitedExecutable(CGROUP, process.env.CHROMIUM_PATH || '/usr/bin/chromium');
const browser = await chromium.launch({
  executablePath: limit?.wrapper ?? (process.env.CHROMIUM_PATH || '/usr/bin/chromium'),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'],
});
const rows = [];
try {
  for (const rate of RATES) {
    const loadBefore = loadavg();
    await signInOnce(browser, account, rate); // warm-up: the platform's first answers, Chromium's own start
    const results = [];
    for (let run = 0; run < RUNS; run += 1) results.push(await signInOnce(browser, account, rate));
    rows.push({ rate, results, load: [loadBefore, loadavg()] });
  }
  for (const row of rows) if (KDF_GRID.length) row.grid = await kdfGrid(browser, row.rate);
} finally {
  await browser.close();
  await account.stop();
  limit?.remove();
}

const pick = (results, key) => results.map((result) => result[key]);
console.log(
  `\nStaff sign-in, ${account.describe}; Chromium ${browser.version()} headless; ${cpus().length} cores${CGROUP ? `; ${CGROUP.label} (CPUs ${limit.cpus}), every Chromium thread` : ''}; ${RUNS} runs per profile, a fresh context each; ${TYPING_MS} ms from the page to the click; ${new Date().toISOString()}\n`,
);
console.log(
  '| CPU | click → list + keys, median / max (ms) | budget | derivation (Argon2id + HKDF), median / max | of which WebCrypto (HKDF) | click → salt request | token request → answer | token answer → done | keys kept (click →) | unlock key kept for a reload | files fetched after the click | load average (1 min) before → after |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const { rate, results, load } of rows) {
  const total = pick(results, 'total');
  // A cgroup of N cores at P % is a 100·N/P× slower CPU for that many threads at once.
  const budget = BUDGETS[CGROUP ? Math.round((100 * CGROUP.cores) / CGROUP.percent) * rate : rate];
  // CDP's rate leaves the derivation's worker at this machine's speed: no verdict to trust there.
  const caveat = rate > 1 && !CGROUP ? ' (worker unthrottled: use BENCH_CGROUP)' : '';
  const verdict = budget === undefined ? '–' : `${budget} ms: ${median(total) <= budget ? 'met' : 'MISSED'}${caveat}`;
  console.log(
    `| ${CGROUP ? `${CGROUP.cores} CPU × ${CGROUP.percent} %, CDP ` : ''}${rate}× | ${medMax(total)} | ${verdict} | ${medMax(pick(results, 'derivation'))} | ${ms(median(pick(results, 'hkdf')))} | ${ms(median(pick(results, 'beforeSalt')))} | ${ms(median(pick(results, 'tokenTrip')))} | ${ms(median(pick(results, 'afterToken')))} | ${ms(median(pick(results, 'kept')))} | ${ms(median(pick(results, 'pendingKept')))} | ${median(pick(results, 'filesAfterClick'))} | ${load[0][0].toFixed(1)} → ${load[1][0].toFixed(1)} |`,
  );
}
for (const { rate, results } of rows)
  console.log(
    `${rate}×: totals ${pick(results, 'total').map(ms).join(', ')}; derivations ${pick(results, 'derivation').map(ms).join(', ')}; fetched after the click in the last run: ${results.at(-1).filesAfterClickPaths.join(', ') || 'nothing'}`,
  );
if (KDF_GRID.length) {
  console.log(
    `\nArgon2id alone (hash-wasm) in a blank page, ${KDF_RUNS} runs each after a warm-up, median / max (ms); load average ${loadavg()[0].toFixed(1)} at the end:\n`,
  );
  console.log(`| CPU | ${KDF_GRID.map((setting) => setting.replace(':', ' MiB, t=')).join(' | ')} |`);
  console.log(`| --- | ${KDF_GRID.map(() => '---').join(' | ')} |`);
  for (const { rate, grid } of rows)
    console.log(`| ${rate}× | ${KDF_GRID.map((setting) => medMax(grid[setting])).join(' | ')} |`);
}
