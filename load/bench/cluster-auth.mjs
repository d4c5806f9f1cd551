// The auth service in cluster mode for the benchmarks: its own process (services/auth/dist/main.js) on a database of
// its own on the loopback PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and a
// fresh exchange on the loopback RabbitMQ (AMQP_URL), as e2e/src/cluster.ts starts it, request lines logged at info
// (to /dev/null) as in production. Requires `npm run build` first.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import testing from '@whistle/service-kit/testing';
import { freePort, root } from './platform.mjs';

const { createTestDatabase, deleteRabbitTopology } = testing;

const SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const AMQP_URL = process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';

/** Auth alone, as a cluster runs it (`nodeArgs`: e.g. --cpu-prof); `stop()` ends it and drops its database. */
export async function startClusterAuth(env = {}, { nodeArgs = [] } = {}) {
  const database = await createTestDatabase(SERVER_URL);
  const exchange = `whistle.bench.${randomBytes(4).toString('hex')}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-bench-auth-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'services', 'auth', 'dist', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: database.url,
      AMQP_URL,
      AMQP_EXCHANGE: exchange,
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      TOKEN_SIGNING_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let ready = false;
  for (let i = 0; i < 300 && !ready && child.exitCode === null; i += 1) {
    try {
      ready = (await fetch(`${baseUrl}/readyz`)).ok;
    } catch {
      /* starting */
    }
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await database.drop();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: ['auth'] }, AMQP_URL);
    await rm(dataDir, { recursive: true, force: true });
  };
  if (!ready) {
    await stop();
    throw new Error('auth did not become ready');
  }
  return { baseUrl, dataDir, child, stop };
}
