#!/usr/bin/env node
// On-demand browser benchmark (not a test): the discloser's pages in Chromium against the built standalone
// platform, each figure the median of several runs. Bytes are what Chromium counts on the wire (CDP
// Network.loadingFinished encodedDataLength: compressed body plus response headers); times are read in the
// page (performance.now(): a MutationObserver notes when an element first appears, a capturing listener
// when the last click happened), so polling from this process adds nothing. Requires `npm run build` first.
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { median, onboard, startStandalone } from './platform.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const LARGE_RUNS = Number(process.env.BENCH_LARGE_RUNS || 3);
const FILE_SIZE = 25_000_000; // MAX_FILE_SIZE of @whistle/contracts
/** Lighthouse's mobile profile: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower. */
const MOBILE = { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8, cpuSlowdown: 4 };

/** What the pages show when each step is done. */
const MARKS = {
  landing: 'article.disclose-landing a[href$="/create"]',
  submitEnabled: 'article.disclose-create form button[type="submit"]:not([disabled])',
  code: 'input[name="secret_code"]',
  report: 'dl.disclose-details',
  progress: 'article.disclose-create progress',
};

/** Runs in every page before its scripts: notes when each mark's element first appears, and clicks. */
function instrument(marks) {
  const bench = { marks: {}, progressValues: [], lastClick: undefined };
  window.__bench = bench;
  const check = () => {
    for (const [name, selector] of Object.entries(marks)) {
      if (!(name in bench.marks) && document.querySelector(selector)) bench.marks[name] = performance.now();
    }
    const progress = document.querySelector(marks.progress);
    if (progress && bench.progressValues.at(-1) !== progress.value) bench.progressValues.push(progress.value);
  };
  bench.forget = (name) => {
    delete bench.marks[name];
    bench.progressValues = [];
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  document.addEventListener('click', () => (bench.lastClick = performance.now()), true);
}

const readBench = (page) => page.evaluate(() => window.__bench);

/** Every request of a page as Chromium's network stack saw it. */
async function watchNetwork(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', ({ requestId, type, request }) =>
    requests.set(requestId, { url: request.url, type, status: 0, bytes: 0, cached: false, encoding: '' }),
  );
  cdp.on('Network.requestServedFromCache', ({ requestId }) => {
    if (requests.has(requestId)) requests.get(requestId).cached = true;
  });
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const request = requests.get(requestId);
    if (!request) return;
    request.status = response.status;
    request.cached ||= Boolean(response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker);
    const headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    request.encoding = headers['content-encoding'] ?? '';
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    if (requests.has(requestId)) requests.get(requestId).bytes = encodedDataLength;
  });
  return { cdp, requests: () => [...requests.values()] };
}

const sum = (requests) => requests.reduce((total, request) => total + request.bytes, 0);
const kb = (bytes) => (bytes / 1024).toFixed(1);
const ms = (value) => value.toFixed(0);
const path = (url) => new URL(url).pathname;

async function newContext(browser) {
  const context = await browser.newContext();
  await context.addInitScript(instrument, MARKS);
  return context;
}

/** One visit of the landing page in `context`: bytes by request and the time the page became usable. */
async function visitLanding(context, url, { mobile = false } = {}) {
  const page = await context.newPage();
  const { cdp, requests } = await watchNetwork(page);
  if (mobile) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...MOBILE });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
  }
  await page.goto(url);
  await page.locator(MARKS.landing).waitFor();
  await page.waitForLoadState('networkidle');
  const { marks } = await readBench(page);
  await page.close();
  return { requests: requests(), interactive: marks.landing };
}

async function landing(browser, url) {
  const first = [];
  const second = [];
  const mobile = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await newContext(browser);
    first.push(await visitLanding(context, url));
    second.push(await visitLanding(context, url));
    await context.close();
    const fresh = await newContext(browser);
    mobile.push(await visitLanding(fresh, url, { mobile: true }));
    await fresh.close();
  }
  return { first, second, mobile };
}

/** Direct visit of the create page: submit enabled, measured from the end of the company view's response. */
async function createPage(context, url) {
  const page = await context.newPage();
  await page.goto(`${url}/create`);
  await page.locator(MARKS.submitEnabled).waitFor();
  const { marks } = await readBench(page);
  const companyArrived = await page.evaluate(
    () =>
      performance.getEntriesByType('resource').find((entry) => entry.name.includes('/api/account/company/'))
        .responseEnd,
  );
  return { page, afterKey: marks.submitEnabled - companyArrived, fromStart: marks.submitEnabled };
}

/** Fills the required inputs, optionally attaches a file, submits and confirms: time from the confirm click to the code. */
async function submitReport(context, url, file) {
  const { page } = await createPage(context, url);
  await page.locator('input[name="category_uuids"]').first().check();
  await page.locator('select[name="location_uuid"]').selectOption({ index: 1 });
  await page.locator('textarea[name="description"]').fill('A benchmark report, nothing happened.');
  if (file) {
    await page.locator('input[name="files"]').setInputFiles(file);
    await page.locator(MARKS.submitEnabled).waitFor({ timeout: 60_000 });
    await page.evaluate(() => window.__bench.forget('progress'));
  }
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Submit incident' }).click();
  await page.locator(MARKS.code).waitFor({ timeout: 120_000 });
  const bench = await readBench(page);
  const code = await page.locator(MARKS.code).inputValue();
  await page.close();
  return {
    code,
    submitToCode: bench.marks.code - bench.lastClick,
    progressAfter: bench.marks.progress === undefined ? undefined : bench.marks.progress - bench.lastClick,
    progressSteps: bench.progressValues.length,
  };
}

/** From the landing page's status form: time from the submit click to the decrypted report. */
async function review(context, url, code) {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('.disclose-landing .wh-actions button').click();
  await page.locator('input[name="uniquePassword"]').fill(code);
  await page.locator('form.disclose-status button[type="submit"]').click();
  await page.locator(MARKS.report).waitFor({ timeout: 60_000 });
  const bench = await readBench(page);
  await page.close();
  return bench.marks.report - bench.lastClick;
}

const platform = await startStandalone();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'],
});
try {
  const { urlIdentifier } = await onboard(platform.baseUrl, 0);
  const url = `${platform.baseUrl}/disclose/${urlIdentifier}`;

  const visits = await landing(browser, url);
  const scripts = (visit) => visit.requests.filter((request) => request.type === 'Script' && !request.cached);
  const firstJs = median(visits.first.map((visit) => sum(scripts(visit))));
  const firstAll = median(visits.first.map((visit) => sum(visit.requests)));
  const secondAll = median(visits.second.map((visit) => sum(visit.requests.filter((request) => !request.cached))));
  const secondJs = median(visits.second.map((visit) => sum(scripts(visit))));

  const coldCreate = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await newContext(browser);
    const { page, afterKey, fromStart } = await createPage(context, url);
    coldCreate.push({ afterKey, fromStart });
    await page.close();
    await context.close();
  }
  const context = await newContext(browser);
  await (await createPage(context, url)).page.close(); // chunks in the cache
  const warmCreate = [];
  for (let run = 0; run < RUNS; run += 1) {
    const { page, afterKey, fromStart } = await createPage(context, url);
    warmCreate.push({ afterKey, fromStart });
    await page.close();
  }
  const textOnly = [];
  for (let run = 0; run < RUNS; run += 1) textOnly.push(await submitReport(context, url));
  const large = [];
  for (let run = 0; run < LARGE_RUNS; run += 1) {
    const file = { name: 'evidence.bin', mimeType: 'application/octet-stream', buffer: randomBytes(FILE_SIZE) };
    large.push(await submitReport(context, url, file));
  }
  const reviews = [];
  for (let run = 0; run < RUNS; run += 1) reviews.push(await review(context, url, textOnly[run].code));
  await context.close();

  const one = visits.first[0];
  console.log(
    `\nDiscloser pages in Chromium ${browser.version()}, standalone platform on PGlite, loopback, ${RUNS} runs`,
  );
  console.log(`(${LARGE_RUNS} with the 25 MB file); medians.\n`);
  console.log('| measurement | median |');
  console.log('| --- | --- |');
  console.log(`| landing, first visit: JavaScript on the wire | ${kb(firstJs)} KB (${scripts(one).length} files) |`);
  console.log(
    `| landing, first visit: everything on the wire | ${kb(firstAll)} KB (${one.requests.length} requests) |`,
  );
  console.log(`| landing, first visit: usable (loopback) | ${ms(median(visits.first.map((v) => v.interactive)))} ms |`);
  console.log(
    `| landing, first visit: usable (150 ms RTT, 1.6 Mbit/s, CPU 4× slower) | ${ms(median(visits.mobile.map((v) => v.interactive)))} ms |`,
  );
  console.log(
    `| landing, second visit: everything on the wire | ${kb(secondAll)} KB (JavaScript ${kb(secondJs)} KB) |`,
  );
  console.log(
    `| landing, second visit: usable (loopback) | ${ms(median(visits.second.map((v) => v.interactive)))} ms |`,
  );
  console.log(
    `| create page, first visit: submit enabled after the company view arrived | ${ms(median(coldCreate.map((r) => r.afterKey)))} ms (${ms(median(coldCreate.map((r) => r.fromStart)))} ms after navigation start) |`,
  );
  console.log(
    `| create page, chunks cached: submit enabled after the company view arrived | ${ms(median(warmCreate.map((r) => r.afterKey)))} ms (${ms(median(warmCreate.map((r) => r.fromStart)))} ms after navigation start) |`,
  );
  console.log(`| submit → secret code shown, text only | ${ms(median(textOnly.map((r) => r.submitToCode)))} ms |`);
  console.log(
    `| submit → secret code shown, 25 MB file | ${ms(median(large.map((r) => r.submitToCode)))} ms (upload progress shown after ${ms(median(large.map((r) => r.progressAfter ?? NaN)))} ms, ${median(large.map((r) => r.progressSteps))} steps) |`,
  );
  console.log(`| review: secret code submitted → decrypted report shown | ${ms(median(reviews))} ms |`);

  console.log('\nLanding page, first visit, one run: what travels (bytes on the wire, encoding)\n');
  for (const request of one.requests)
    console.log(
      `  ${request.type.padEnd(10)} ${kb(request.bytes).padStart(7)} KB  ${request.encoding.padEnd(4)} ${path(request.url)}`,
    );
  console.log('\nLanding page, second visit in the same browser: what went to the server\n');
  for (const request of visits.second[0].requests)
    console.log(
      `  ${request.type.padEnd(10)} ${request.cached ? 'cache'.padStart(5) : String(request.status).padStart(5)} ${kb(request.bytes).padStart(6)} KB  ${path(request.url)}`,
    );
} finally {
  await browser.close();
  await platform.stop();
}
