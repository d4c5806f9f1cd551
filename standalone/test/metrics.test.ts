import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '@whistle/service-kit';
import { createTestDatabase, type TestDatabase } from '@whistle/service-kit/testing';
import { startStandalone, type StandaloneServer } from '../src/server';

describe('standalone metrics', () => {
  let database: TestDatabase;
  let dataDir: string;
  let platform: StandaloneServer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-standalone-metrics-'));
  });
  afterEach(async () => {
    await platform?.shutdown('test');
    platform = undefined;
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string>) =>
    startStandalone({
      env: { DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: '0', ...env },
      logger: createLogger({ name: 'whistle', level: 'silent' }),
    });

  it('when METRICS_PORT is set, then /metrics on that port shows the free space of the disk store, and the API port does not serve it', async () => {
    platform = await start({ METRICS_PORT: '0' });

    expect(platform.metricsPort).toEqual(expect.any(Number));
    expect(platform.metricsPort).not.toBe(platform.port);
    // The disk store's folder exists from its first readiness check (or upload) on, as under any probe.
    expect((await fetch(`http://127.0.0.1:${platform.port}/readyz`)).status).toBe(200);
    const metrics = await fetch(`http://127.0.0.1:${platform.metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    const free = /^whistle_disk_free_bytes\{store="objects"\} (\d+)$/m.exec(await metrics.text());
    expect(Number(free?.[1])).toBeGreaterThan(0);
    // The public port has no metrics: where the frontends are built, its page fallback answers with the shell.
    const onApiPort = await fetch(`http://127.0.0.1:${platform.port}/metrics`);
    expect(await onApiPort.text()).not.toMatch(/whistle_disk_free_bytes|# TYPE/);
  });

  it('when METRICS_PORT is unset, then no metrics port is opened', async () => {
    platform = await start({});

    expect(platform.metricsPort).toBeUndefined();
  });
});
