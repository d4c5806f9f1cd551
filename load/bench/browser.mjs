#!/usr/bin/env node
// On-demand browser benchmark (not a test): the discloser's pages in Chromium against the built standalone
// platform, each figure the median of several runs. Bytes are what Chromium counts on the wire (CDP
// Network.loadingFinished encodedDataLength: the compressed body plus the response headers). Times are read
// in the page (performance.now()): a MutationObserver notes when an element first appears, a capturing
// listener when the last click happened, a PerformanceObserver the long tasks; nothing polls from here.
// Requires `npm run build` first. BENCH_RUNS (5) and BENCH_LARGE_RUNS (3) set the number of runs.
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import crypto from '@whistle/crypto';
import { median, onboard, startStandalone } from './platform.mjs';
import { ownPersonKeys, signIn } from './staff-keys.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const LARGE_RUNS = Number(process.env.BENCH_LARGE_RUNS || 3);
const FILE_SIZE = 25_000_000; // MAX_FILE_SIZE of @whistle/contracts
/** Staff replies in each reviewed report, each signed: the review page verifies them all before showing them. */
const STAFF_REPLIES = 20;
/** Lighthouse's mobile profile: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower. */
const MOBILE = { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8, cpuSlowdown: 4 };

/** What the pages show when each step is done. */
const MARKS = {
  landing: 'article.disclose-landing a[href$="/create"]',
  createForm: 'article.disclose-create form',
  submitEnabled: 'article.disclose-create form button[type="submit"]:not([disabled])',
  code: '.disclose-code__value',
  report: 'dl.disclose-details',
  // The last reply of the thread decrypted and its signature verified against the case team the report pinned.
  verifiedThread: `.wh-thread li:nth-child(${STAFF_REPLIES}) .wh-message__mark--verified`,
  progress: 'article.disclose-create progress',
};

/** Runs in every page before its scripts: notes when each mark's element first appears, clicks and long tasks. */
function instrument(marks) {
  const bench = { marks: {}, progressValues: [], longTasks: [], lastClick: undefined };
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
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const readBench = (page) => page.evaluate(() => window.__bench);
const longestTaskSince = (bench, since) =>
  Math.max(0, ...bench.longTasks.filter((task) => task.start >= since).map((task) => task.duration));

/** Every request of a page as Chromium's network stack saw it (status 304 from the raw response). */
async function watchNetwork(page, { acceptEncoding } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  if (acceptEncoding) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': acceptEncoding } });
  const requests = new Map();
  const request = (requestId) => requests.get(requestId) ?? {};
  cdp.on('Network.requestWillBeSent', ({ requestId, type, request: sent }) =>
    requests.set(requestId, { url: sent.url, type, status: 0, bytes: 0, cached: false, encoding: '' }),
  );
  cdp.on('Network.requestServedFromCache', ({ requestId }) => (request(requestId).cached = true));
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const seen = request(requestId);
    seen.status ||= response.status;
    seen.cached ||= Boolean(response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker);
    const headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    seen.encoding = headers['content-encoding'] ?? '';
  });
  // What came over the wire: a revalidated file is a 304 here, a 200 (from the cache) above.
  cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => {
    if (requests.has(requestId)) request(requestId).status = statusCode;
  });
  cdp.on(
    'Network.loadingFinished',
    ({ requestId, encodedDataLength }) => (request(requestId).bytes = encodedDataLength),
  );
  return { cdp, requests: () => [...requests.values()] };
}

const onWire = (requests) => requests.filter((request) => !request.cached);
const scripts = (requests) => onWire(requests).filter((request) => request.type === 'Script');
const sum = (requests) => requests.reduce((total, request) => total + request.bytes, 0);
const kb = (bytes) => (bytes / 1024).toFixed(1);
const ms = (value) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const pathOf = (url) => new URL(url).pathname;

async function newContext(browser) {
  const context = await browser.newContext();
  await context.addInitScript(instrument, MARKS);
  return context;
}

/** One visit of the landing page in `context`: its requests and when the page became usable. */
async function visitLanding(context, url, { mobile = false, acceptEncoding } = {}) {
  const page = await context.newPage();
  const { cdp, requests } = await watchNetwork(page, { acceptEncoding });
  if (mobile) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...MOBILE });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
  }
  await page.goto(url);
  await page.locator(MARKS.landing).waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const { marks } = await readBench(page);
  await page.close();
  return { requests: requests(), usable: marks.landing };
}

/** Landing page: first visit and the next one in the same browser, first visits with gzip only and on a phone. */
async function landing(browser, url) {
  const runs = { first: [], second: [], gzip: [], mobile: [] };
  for (let run = 0; run < RUNS; run += 1) {
    const context = await newContext(browser);
    runs.first.push(await visitLanding(context, url));
    runs.second.push(await visitLanding(context, url));
    await context.close();
    for (const [name, options] of [
      ['gzip', { acceptEncoding: 'gzip, deflate' }],
      ['mobile', { mobile: true }],
    ]) {
      const fresh = await newContext(browser);
      runs[name].push(await visitLanding(fresh, url, options));
      await fresh.close();
    }
  }
  return runs;
}

/**
 * When the company view (with its public key) reached the page: the standalone server writes it into the HTML
 * (a JSON block the remote takes), so it came with the document; a server that does not (the chart's nginx
 * frontends) leaves the remote to ask GET /api/account/company/{id}, and then it came with that answer.
 */
function companyViewArrival() {
  const request = performance
    .getEntriesByType('resource')
    .find((entry) => entry.name.includes('/api/account/company/'));
  if (request) return { at: request.responseEnd, from: 'api' };
  return { at: performance.getEntriesByType('navigation')[0].responseEnd, from: 'page' };
}

/**
 * The create page opened directly: how long after both the company view (with its public key) and the
 * form are there the submit button is enabled (the incident credentials are made in between).
 */
async function openCreatePage(context, url) {
  const page = await context.newPage();
  await page.goto(`${url}/create`);
  await page.locator(MARKS.submitEnabled).waitFor({ timeout: 60_000 });
  const { marks } = await readBench(page);
  const company = await page.evaluate(companyViewArrival);
  return {
    page,
    viewFrom: company.from,
    afterKey: marks.submitEnabled - Math.max(company.at, marks.createForm),
    fromStart: marks.submitEnabled,
  };
}

/** From the landing page: the click on 'Report an incident' until the form can be sent (router and page downloaded). */
async function createFromLanding(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(MARKS.landing).click();
  await page.locator(MARKS.submitEnabled).waitFor({ timeout: 60_000 });
  const bench = await readBench(page);
  await page.close();
  return bench.marks.submitEnabled - bench.lastClick;
}

/** Fills the required inputs, optionally attaches a file, submits and confirms: from the confirm click to the code. */
async function submitReport(context, url, file) {
  const { page } = await openCreatePage(context, url);
  const { cdp, requests } = await watchNetwork(page);
  const uploads = new Map();
  cdp.on('Network.requestWillBeSent', ({ requestId, request, timestamp }) => {
    if (request.url.includes('/api/incident/file')) uploads.set(requestId, { sent: timestamp });
  });
  cdp.on('Network.responseReceived', ({ requestId, timestamp }) => {
    if (uploads.has(requestId)) uploads.get(requestId).answered = timestamp;
  });
  await page.locator('input[name="category_uuids"]').first().check();
  await page.locator('select[name="location_uuid"]').selectOption({ index: 1 });
  await page.locator('textarea[name="description"]').fill('A benchmark report, nothing happened.');
  if (file) {
    // 25 MB handed to the page over the DevTools protocol: more than the default 30 s on a loaded machine.
    await page.locator('input[name="files"]').setInputFiles(file, { timeout: 180_000 });
    await page.locator(MARKS.submitEnabled).waitFor({ timeout: 60_000 });
    await page.evaluate(() => window.__bench.forget('progress'));
  }
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Submit incident' }).click();
  await page.locator(MARKS.code).waitFor({ timeout: 120_000 });
  const bench = await readBench(page);
  const code = await page.locator(MARKS.code).textContent();
  await page.close();
  const upload = [...uploads.values()][0];
  return {
    code,
    submitToCode: bench.marks.code - bench.lastClick,
    progressAfter: bench.marks.progress === undefined ? NaN : bench.marks.progress - bench.lastClick,
    progressSteps: bench.progressValues.length,
    longestTask: longestTaskSince(bench, bench.lastClick),
    uploadRequest: upload?.answered ? (upload.answered - upload.sent) * 1000 : NaN,
    uploaded: sum(requests().filter((request) => request.url.includes('/api/incident/file'))),
  };
}

/**
 * The case team answers a report STAFF_REPLIES times, as the case page sends replies: encrypted to the case and signed
 * with the admin's signing key (the incident's public key comes from the discloser's view, opened with the code).
 */
async function replySigned(baseUrl, urlIdentifier, code, admin) {
  const { retrievalId, passphrase } = crypto.parseSecretCode(code);
  const query = new URLSearchParams({ url_identifier: urlIdentifier, retrieval_id: retrievalId });
  const discloser = await fetch(`${baseUrl}/api/incident/discloser?${query}`, {
    headers: { authorization: `Bearer ${await crypto.deriveDiscloserAuthToken(passphrase)}` },
  });
  if (!discloser.ok) throw new Error(`the discloser view answered ${discloser.status}`);
  const view = await discloser.json();
  const incidentPublicKey = view.credential.public_key;
  for (let index = 0; index < STAFF_REPLIES; index += 1) {
    const content = await crypto.encryptContent(incidentPublicKey, `Reply ${index + 1} of the case team`, {
      kind: 'message',
      from: 'staff',
    });
    const signature = await crypto.signStaffContent(admin.person, {
      incidentPublicKey,
      kind: 'message',
      ciphertexts: [content],
    });
    const sent = await fetch(`${baseUrl}/api/incident/message/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ incident_uuid: view.uuid, content, signature }),
    });
    if (sent.status !== 201) throw new Error(`a staff reply answered ${sent.status}`);
  }
}

/** From the landing page's status form: from the submit click to the decrypted report, and to the verified thread. */
async function review(context, url, code) {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('.disclose-landing .wh-actions button').click();
  await page.locator('input[name="uniquePassword"]').fill(code);
  await page.locator('form.disclose-status button[type="submit"]').click();
  await page.locator(MARKS.report).waitFor({ timeout: 60_000 });
  await page.locator(MARKS.verifiedThread).waitFor({ timeout: 60_000 });
  const bench = await readBench(page);
  await page.close();
  return {
    report: bench.marks.report - bench.lastClick,
    thread: bench.marks.verifiedThread - bench.lastClick,
    afterReport: bench.marks.verifiedThread - bench.marks.report,
  };
}

async function repeat(times, measure) {
  const results = [];
  for (let run = 0; run < times; run += 1) results.push(await measure(run));
  return results;
}

const platform = await startStandalone();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const { urlIdentifier, email, password } = await onboard(platform, 0);
  const adminToken = await signIn(platform.baseUrl, email, password);
  const admin = { token: adminToken, person: await ownPersonKeys(platform.baseUrl, adminToken, password) };
  const url = `${platform.baseUrl}/disclose/${urlIdentifier}`;

  const visits = await landing(browser, url);
  const coldCreate = await repeat(RUNS, async () => {
    const context = await newContext(browser);
    const { page, ...timing } = await openCreatePage(context, url);
    await context.close();
    return timing;
  });
  const context = await newContext(browser);
  await (await openCreatePage(context, url)).page.close(); // every page's files in the cache
  const warmCreate = await repeat(RUNS, async () => {
    const { page, ...timing } = await openCreatePage(context, url);
    await page.close();
    return timing;
  });
  const fromLanding = await repeat(RUNS, async () => {
    const fresh = await newContext(browser);
    const elapsed = await createFromLanding(fresh, url);
    await fresh.close();
    return elapsed;
  });
  const textOnly = await repeat(RUNS, () => submitReport(context, url));
  const large = await repeat(LARGE_RUNS, () =>
    submitReport(context, url, {
      name: 'evidence.bin',
      mimeType: 'application/octet-stream',
      buffer: randomBytes(FILE_SIZE),
    }),
  );
  for (const { code } of textOnly) await replySigned(platform.baseUrl, urlIdentifier, code, admin);
  const reviews = await repeat(RUNS, (run) => review(context, url, textOnly[run].code));
  await context.close();

  const med = (values) => median(values);
  const row = (measurement, value) => console.log(`| ${measurement} | ${value} |`);
  console.log(`\nDiscloser pages, Chromium ${browser.version()}, standalone platform (PGlite) on loopback.`);
  console.log(`Medians of ${RUNS} runs (${LARGE_RUNS} with the 25 MB file), ${new Date().toISOString()}.\n`);
  console.log('| measurement | median |');
  console.log('| --- | --- |');
  row(
    'landing, first visit: JavaScript on the wire (Brotli)',
    `${kb(med(visits.first.map((v) => sum(scripts(v.requests)))))} KB in ${scripts(visits.first[0].requests).length} files`,
  );
  row(
    'landing, first visit: JavaScript on the wire (gzip only, as from nginx)',
    `${kb(med(visits.gzip.map((v) => sum(scripts(v.requests)))))} KB`,
  );
  row(
    'landing, first visit: everything on the wire',
    `${kb(med(visits.first.map((v) => sum(onWire(v.requests)))))} KB in ${visits.first[0].requests.length} requests`,
  );
  row('landing, first visit: usable (loopback)', `${ms(med(visits.first.map((v) => v.usable)))} ms`);
  row(
    'landing, first visit: usable (150 ms RTT, 1.6 Mbit/s, CPU 4× slower)',
    `${ms(med(visits.mobile.map((v) => v.usable)))} ms`,
  );
  row(
    'landing, second visit: on the wire',
    `${kb(med(visits.second.map((v) => sum(onWire(v.requests)))))} KB, of which JavaScript ${kb(med(visits.second.map((v) => sum(scripts(v.requests)))))} KB`,
  );
  row('landing, second visit: usable (loopback)', `${ms(med(visits.second.map((v) => v.usable)))} ms`);
  const viewSources = new Set([...coldCreate, ...warmCreate].map((r) => r.viewFrom));
  row(
    'create page: the company view came',
    [...viewSources].map((from) => (from === 'page' ? 'in the HTML' : 'from GET /api/account/company/{id}')).join(', '),
  );
  row(
    'create page, first visit: submit enabled after the company key and the form are there',
    `${ms(med(coldCreate.map((r) => r.afterKey)))} ms (${ms(med(coldCreate.map((r) => r.fromStart)))} ms after navigation start)`,
  );
  row(
    'create page, files cached: submit enabled after the company key and the form are there',
    `${ms(med(warmCreate.map((r) => r.afterKey)))} ms (${ms(med(warmCreate.map((r) => r.fromStart)))} ms after navigation start)`,
  );
  row('create page from the landing page, first visit: click → submit enabled', `${ms(med(fromLanding))} ms`);
  row('submit → secret code shown, text only', `${ms(med(textOnly.map((r) => r.submitToCode)))} ms`);
  row(
    'submit → secret code shown, 25 MB file',
    `${ms(med(large.map((r) => r.submitToCode)))} ms: upload request ${ms(med(large.map((r) => r.uploadRequest)))} ms, ` +
      `progress shown ${ms(med(large.map((r) => r.progressAfter)))} ms after the click (${med(large.map((r) => r.progressSteps))} values), ` +
      `longest main-thread task ${ms(med(large.map((r) => r.longestTask)))} ms`,
  );
  row('review: secret code submitted → decrypted report shown', `${ms(med(reviews.map((r) => r.report)))} ms`);
  row(
    `review: secret code submitted → ${STAFF_REPLIES} signed replies decrypted, verified and shown`,
    `${ms(med(reviews.map((r) => r.thread)))} ms (${ms(med(reviews.map((r) => r.afterReport)))} ms after the report)`,
  );

  console.log('\nLanding page, first visit (one run): each request, bytes on the wire and encoding\n');
  for (const request of visits.first[0].requests)
    console.log(
      `  ${request.type.padEnd(10)} ${kb(request.bytes).padStart(6)} KB  ${request.encoding.padEnd(4)} ${pathOf(request.url)}`,
    );
  console.log('\nLanding page, second visit in the same browser (one run): cache, 304 (revalidated) or 200\n');
  for (const request of visits.second[0].requests)
    console.log(
      `  ${request.type.padEnd(10)} ${(request.cached ? 'cache' : String(request.status)).padStart(5)} ${kb(request.bytes).padStart(6)} KB  ${pathOf(request.url)}`,
    );
} finally {
  await browser.close();
  await platform.stop();
}
