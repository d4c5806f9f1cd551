#!/usr/bin/env node
// On-demand benchmark (not a test): a bare Express baseline and the standalone platform under the same
// autocannon load in one run, onboarding latency, and the discloser landing page's JavaScript weight in Chromium.
// Prints a Markdown table for docs/performance.md. Requires `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import express from 'express';
import { chromium } from 'playwright-core';
import crypto from '@whistle/crypto';

const { createCompanyCredentials } = crypto;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function load(url) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { accept: 'application/json' },
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function startStandalone() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'standalone', 'dist', 'main.js')], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function onboard(baseUrl, index) {
  const { credential, passphrase } = await createCompanyCredentials();
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/account/company`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user_profile: {
        email: `admin@bench-${index}-${Date.now()}.example`,
        password: 'a long enough password',
        full_name: 'Bench Admin',
      },
      name: `Bench ${index}`,
      credential,
      passphrase,
      country: 'FR',
    }),
  });
  const elapsed = performance.now() - started;
  if (response.status !== 201) throw new Error(`onboarding answered ${response.status}`);
  return { elapsed, urlIdentifier: (await response.json()).url_identifier };
}

async function landingPageJavaScript(baseUrl, urlIdentifier) {
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
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(
        response.body().then((body) => ({ url: response.url(), raw: body.length, gzip: gzipSync(body).length })),
      );
  });
  await page.goto(`${baseUrl}/disclose/${urlIdentifier}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading').first().waitFor();
  const files = await Promise.all(scripts);
  await browser.close();
  return {
    files: files.length,
    raw: files.reduce((sum, file) => sum + file.raw, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
  };
}

const baselinePort = await freePort();
const baseline = express()
  .get('/hello', (_req, res) => res.json({ hello: 'world' }))
  .listen(baselinePort, '127.0.0.1');
const platform = await startStandalone();
try {
  const onboardings = [];
  for (let i = 0; i < 10; i += 1) onboardings.push(await onboard(platform.baseUrl, i));
  const { urlIdentifier } = onboardings[0];
  const bare = await load(`http://127.0.0.1:${baselinePort}/hello`);
  const view = await load(`${platform.baseUrl}/api/account/company/${urlIdentifier}`);
  const rss =
    Number(
      (await import('node:fs')).readFileSync(`/proc/${platform.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1],
    ) / 1024;
  const landing = await landingPageJavaScript(platform.baseUrl, urlIdentifier);
  const sorted = onboardings.map((o) => o.elapsed).sort((a, b) => a - b);

  console.log(
    `\n${DURATION_S} s per run, ${CONNECTIONS} connections, autocannon, one machine (${(await import('node:os')).cpus().length} cores)\n`,
  );
  console.log('| measurement | req/s | p50 ms | p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(`| bare Express 5 GET /hello (baseline) | ${bare.rps} | ${bare.p50} | ${bare.p99} | ${bare.errors} |`);
  console.log(`| GET /api/account/company/{id} (PGlite) | ${view.rps} | ${view.p50} | ${view.p99} | ${view.errors} |`);
  console.log(
    `\nOnboarding POST /api/account/company, 10 sequential: median ${sorted[5].toFixed(0)} ms, max ${sorted[9].toFixed(0)} ms (argon2id hash included)`,
  );
  console.log(`Standalone RSS after the load: ${rss.toFixed(0)} MB`);
  console.log(
    `Discloser landing page, first visit: ${landing.files} JS files, ${(landing.raw / 1024).toFixed(1)} KB raw, ${(landing.gzip / 1024).toFixed(1)} KB gzip`,
  );
} finally {
  baseline.close();
  await platform.stop();
}
