// auth and incident as a cluster runs them, for the benchmarks: each its own process (services/*/dist/main.js) on a
// PostgreSQL database of their own (on BENCH_DATABASE_URL's server) and a fresh exchange on RabbitMQ (AMQP_URL).
// Shared by journey.mjs and outage-memory.mjs. Requires `npm run build` first.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import serviceKitTesting from '@whistle/service-kit/testing';
import { freePort, root } from './platform.mjs';

const { createTestDatabase, deleteRabbitTopology } = serviceKitTesting;
const AMQP_URL = process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';

function keyPair(privateName, publicName) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    [privateName]: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    [publicName]: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

async function waitReady(url, child) {
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} never became ready`);
}

/**
 * auth and incident (auth first: it creates the exchange incident's consumer binds to). `env` goes to both;
 * `incident.env` and `incident.nodeArgs` to incident alone; `incident.databaseUrl(url)` may route incident's
 * database connections elsewhere (through a fault proxy), auth's stay direct. `buildRoot`: another tree's build.
 */
export async function startCluster({ env = {}, buildRoot = root, incident = {} } = {}) {
  const database = await createTestDatabase(process.env.BENCH_DATABASE_URL);
  // Where auth writes its mail (the onboarding confirmation the bench follows).
  const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-bench-cluster-'));
  const exchange = `whistle.bench.${randomBytes(4).toString('hex')}`;
  const shared = {
    ...process.env,
    DATABASE_URL: database.url,
    AMQP_URL,
    AMQP_EXCHANGE: exchange,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...keyPair('TOKEN_SIGNING_KEY', 'TOKEN_PUBLIC_KEY'),
    ...keyPair('DISCLOSER_TOKEN_PRIVATE_KEY', 'DISCLOSER_TOKEN_PUBLIC_KEY'),
    ...env,
  };
  const services = {};
  const children = [];
  const stop = async () => {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await database.drop();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: ['auth', 'incident'] }, AMQP_URL);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (const name of ['auth', 'incident']) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const own = name === 'incident' ? incident : {};
      const child = spawn(
        process.execPath,
        [...(own.nodeArgs ?? []), path.join(buildRoot, 'services', name, 'dist', 'main.js')],
        {
          env: {
            ...shared,
            ...own.env,
            DATABASE_URL: own.databaseUrl ? own.databaseUrl(database.url) : database.url,
            PORT: String(port),
            PUBLIC_URL: url,
            DATA_DIR: dataDir,
          },
          stdio: ['ignore', 'inherit', 'inherit'],
        },
      );
      children.push(child);
      services[name] = { url, child };
      await waitReady(url, child);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    describe: `PostgreSQL, cluster mode (auth and incident processes, RabbitMQ; ${buildRoot})`,
    authUrl: services.auth.url,
    dataDir,
    incidentUrl: services.incident.url,
    incidentPid: services.incident.child.pid,
    incidentChild: services.incident.child,
    databaseUrl: database.url,
    stop,
  };
}
