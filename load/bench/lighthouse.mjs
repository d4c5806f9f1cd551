#!/usr/bin/env node
// On-demand Lighthouse benchmark (not a test): the discloser's pages and the staff login page on Lighthouse's
// default mobile profile (simulated slow 4G: 150 ms round trip, 1.6 Mbit/s; CPU 4× slower), against the built
// standalone platform with one onboarded company. Each run is a fresh Chromium (empty cache: a first visit);
// the table holds the medians of BENCH_RUNS (5) runs per page. Lighthouse from npm, Debian's Chromium
// (CHROME_PATH, default /usr/bin/chromium). Requires `npm run build` first.
// BENCH_PAGES picks pages (landing,create,success,review,login); BENCH_BASE_URL + BENCH_COMPANY measure a
// platform already running instead of starting one. BENCH_THROTTLING=devtools throttles for real (DevTools' network
// and CPU throttling, the page loaded as a slow phone would) instead of Lighthouse's default simulation, which
// estimates from an unthrottled load and counts every request announced before the first paint as if it held it.
import { lighthouseFigures, loadAverages as load, measurePage, printFigures } from './lighthouse-figures.mjs';
import { onboard, startStandalone } from './platform.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu';
const THROTTLING = process.env.BENCH_THROTTLING || 'simulate';
if (!['simulate', 'devtools'].includes(THROTTLING)) throw new Error('BENCH_THROTTLING is simulate or devtools');

/** A fresh Chromium per run (empty cache and storage: a first visit). */
const measure = (url) =>
  lighthouseFigures(url, [`--chrome-flags=${CHROME_FLAGS}`, `--throttling-method=${THROTTLING}`]);

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

const platform = process.env.BENCH_BASE_URL ? undefined : await startStandalone({}, { stdout: 'ignore' });
try {
  const baseUrl = process.env.BENCH_BASE_URL ?? platform.baseUrl;
  const company = process.env.BENCH_COMPANY ?? (await onboard(platform, 0)).urlIdentifier;
  const names = (process.env.BENCH_PAGES || Object.keys(PAGES).join(',')).split(',');
  console.log(`Lighthouse mobile (${THROTTLING}), ${RUNS} runs a page, ${baseUrl}, load average before: ${load()}`);
  const rows = [];
  for (const name of names)
    rows.push(await measurePage(PAGES[name]('{id}'), `${baseUrl}${PAGES[name](company)}`, measure, RUNS));
  printFigures(rows);
  console.log(`load average after: ${load()}; ${new Date().toISOString()}`);
} finally {
  await platform?.stop();
}
