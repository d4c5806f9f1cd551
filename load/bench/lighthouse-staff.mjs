#!/usr/bin/env node
// On-demand Lighthouse benchmark (not a test): the staff pages a case team opens all day, on Lighthouse's desktop
// profile (issue 27, item 4: LCP ≤ 1.5 s with 1,000 cases in the list) — the incident list of a tenant of
// BENCH_LIST_CASES cases (1,000) and a case page with 10 report fields, 20 messages and 3 files (bench-case.mjs),
// against the built standalone platform on PostgreSQL (the tenant of case-seed.mjs; BENCH_DATABASE_URL).
// The admin signs in once, in a Chromium with a debugging port; Lighthouse then measures each page in that browser
// with its storage kept (`--disable-storage-reset`: the token and the kept keys, as a signed-in person has them)
// and the HTTP cache emptied before every run, so every file is downloaded again (the first visit after a
// deployment). Medians of BENCH_RUNS (5) runs a page. Requires `npm run build` first.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { lighthouseFigures, loadAverages, measurePage, printFigures } from './lighthouse-figures.mjs';
import { freePort } from './platform.mjs';
import { sizeTenant } from './tenant-size.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const LIST_CASES = Number(process.env.BENCH_LIST_CASES || 1_000);
// The tenant holds the templates, their clones and the case opened: LIST_CASES in all.
sizeTenant(LIST_CASES, 1);
const { seededTenant } = await import('./case-seed.mjs');
const { CASE_TOKENS, makeCase } = await import('./bench-case.mjs');

const tenant = await seededTenant();
const profile = await mkdtemp(path.join(tmpdir(), 'whistle-lighthouse-staff-'));
const port = await freePort();
// One persistent profile: Lighthouse opens its tab in this browser's default context, the one signed in here.
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${port}`],
});
try {
  console.log(`Lighthouse desktop, ${RUNS} runs a page, ${tenant.baseUrl}, load average before: ${loadAverages()}`);
  const uuid = await makeCase(tenant);
  const { rows: counted } = await tenant.db.query('select count(*)::int as cases from incident.incident');
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(`${tenant.baseUrl}/company/login`);
  await page.getByLabel('Email').fill(tenant.company.email);
  await page.getByLabel('Password').fill(tenant.company.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor({ timeout: 60_000 });
  // The session works from a page load of the case's address: every token of the case shows, decrypted.
  await page.goto(`${tenant.baseUrl}/company/incidents/${uuid}`);
  await page.waitForFunction(
    (tokens) => tokens.every((token) => document.body.textContent.includes(token)),
    CASE_TOKENS,
    {
      timeout: 60_000,
    },
  );
  const cdp = await browser.newCDPSession(page);
  const measure = async (url) => {
    await cdp.send('Network.clearBrowserCache');
    return lighthouseFigures(url, ['--preset=desktop', `--port=${port}`, '--disable-storage-reset']);
  };
  const pages = { list: '/company/incidents', case: `/company/incidents/${uuid}` };
  const rows = [
    await measurePage(
      `/company/incidents (${counted[0].cases} cases)`,
      `${tenant.baseUrl}${pages.list}`,
      measure,
      RUNS,
    ),
    await measurePage('/company/incidents/{uuid}', `${tenant.baseUrl}${pages.case}`, measure, RUNS),
  ];
  printFigures(rows);
  console.log(`load average after: ${loadAverages()}; ${new Date().toISOString()}`);
} finally {
  await browser.close();
  await rm(profile, { recursive: true, force: true });
  await tenant.close();
}
