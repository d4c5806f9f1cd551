import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, PostgresDatabase } from '@whistle/service-kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@whistle/service-kit/testing';
import { startStandalone } from '../src/server';

/** A POST whose client gives up (closes its socket) without waiting for the answer. */
function abandonedSignIn(port: number) {
  const request = http.request({ host: '127.0.0.1', port, path: '/api/account/token', method: 'POST' });
  request.on('error', () => undefined);
  request.setHeader('content-type', 'application/json');
  request.end(JSON.stringify({ username: 'someone@whistle-test.example', password: 'not the password' }));
  return request;
}

describe('standalone shutdown', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-standalone-shutdown-'));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when clients of slow requests leave and the platform stops, then their handlers finish before the pool closes: no 500, within the grace period', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      name: 'whistle',
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const graceMs = 10_000;
    const platform = await startStandalone({
      env: { DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
      logger,
      graceMs,
    });

    // Sign-ins wait on the locked rate-limit counters (their first query; arriving together, their increments may
    // share one statement); each has more queries to run after.
    const locker = new PostgresDatabase({ connectionString: database.url });
    let unlock!: () => void;
    const locked = new Promise<void>((resolve) => {
      void locker.transaction(async (tx) => {
        await tx.query('LOCK TABLE auth.rate_limit_counter IN ACCESS EXCLUSIVE MODE');
        resolve();
        await new Promise<void>((release) => (unlock = release));
      });
    });
    await locked;
    const requests = [abandonedSignIn(platform.port), abandonedSignIn(platform.port), abandonedSignIn(platform.port)];
    await waitFor(
      async () => {
        const { rows } = await locker.query<{ waiting: number }>(
          `select count(*)::int as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return rows[0]!.waiting >= 1;
      },
      { what: 'the sign-ins waiting for the lock' },
    );
    // The three are counted by one statement or by a few, at most two at once: let every one reach the lock.
    await sleep(300);
    for (const request of requests) request.destroy();

    const started = Date.now();
    const stopping = platform.shutdown('test');
    // Every socket is gone: only the handlers may keep the shutdown waiting now (before, the pool closed at once).
    await Promise.race([stopping, sleep(500)]);
    unlock();
    await stopping;
    const tookMs = Date.now() - started;
    await locker.close();

    const log = lines.join('');
    expect(log).not.toContain('Cannot use a pool after calling end');
    expect(log).not.toContain('"status":500');
    expect(log).not.toContain('requests still running');
    expect(log).toContain('"msg":"stopped"');
    expect(tookMs).toBeLessThan(graceMs);
  });
});
