// What the benchmarks need: free ports, the bare Express baseline, the built standalone platform in a fresh data folder,
// onboarding.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { simpleParser } from 'mailparser';
import { onboardingBody } from './staff-keys.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Ports below the ephemeral range outgoing connections draw from (32768–60999 on Linux), as
// @whistle/test-support's freePort explains: one picked by listen(0) can be taken by another process's connection
// before the service it was meant for binds it.
const handedOut = new Set();
const canListen = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });

export async function freePort() {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(20000, 32000);
    if (!handedOut.has(port) && (await canListen(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free TCP port between 20000 and 32000 after 100 tries');
}

/**
 * Runs `measure` with the URL of a bare Express 5 app answering GET /hello on loopback: the ceiling each benchmark
 * compares the platform's throughput with, measured in the same run on the same (shared) machine.
 */
export async function withExpressBaseline(measure) {
  const port = await freePort();
  const server = express()
    .get('/hello', (_req, res) => res.json({ hello: 'world' }))
    .listen(port, '127.0.0.1');
  try {
    return await measure(`http://127.0.0.1:${port}/hello`);
  } finally {
    server.close();
  }
}

/**
 * `standalone/dist/main.js` in a temporary data folder, or in `dataDir` (PGlite there unless `env` names a
 * DATABASE_URL), ready when `/readyz` answers. `stop({ keepData: true })` leaves the folder for a restart.
 * `stdout: 'ignore'` drops its log lines (with LOG_LEVEL info, one a request).
 */
export async function startStandalone(env = {}, options = {}) {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'whistle-bench-')));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // `options.root`: another tree's build (a before/after comparison in one run).
  const child = spawn(process.execPath, [path.join(options.root ?? root, 'standalone', 'dist', 'main.js')], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: baseUrl, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', options.stdout ?? 'inherit', 'inherit'],
  });
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
    dataDir,
    stop: async ({ keepData = false } = {}) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The token of the confirmation link onboarding mailed to `to`, read from the platform's mail folder
 * (`DATA_DIR/mail`, where every bench platform's mail goes).
 */
async function confirmationToken(mailDir, to) {
  for (let i = 0; i < 300; i += 1) {
    for (const name of (await readdir(mailDir).catch(() => [])).filter((file) => file.endsWith('.eml'))) {
      const mail = await simpleParser(await readFile(path.join(mailDir, name)));
      const token = /\/company\/onboarding\/confirm#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
      if (token && mail.to?.text.includes(to)) return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no confirmation mail to ${to} in ${mailDir}`);
}

/**
 * Onboards a company (keys made as the admin's browser makes them) and confirms it from the mail folder of
 * `platform` (`{ baseUrl, dataDir }`); resolves the registration's timing (argon2id hash included), the admin's
 * credentials and the url_identifier.
 */
export async function onboard(platform, index) {
  const email = `admin@bench-${index}-${Date.now()}.example`;
  const password = 'a long enough password';
  const body = await onboardingBody({ email, password, name: `Bench ${index}` });
  const started = performance.now();
  const response = await fetch(`${platform.baseUrl}/api/account/company`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const elapsed = performance.now() - started;
  if (response.status !== 201) throw new Error(`onboarding answered ${response.status}`);
  const token = await confirmationToken(path.join(platform.dataDir, 'mail'), email);
  const confirmed = await fetch(`${platform.baseUrl}/api/account/company/confirmation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (confirmed.status !== 200) throw new Error(`confirmation answered ${confirmed.status}`);
  return { elapsed, email, password, urlIdentifier: (await confirmed.json()).url_identifier };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
