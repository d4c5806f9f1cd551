import { Router } from 'express';
import pg from 'pg';
import { ServiceUnavailableError } from '../../src/errors/errors';
import { createHttpApp } from '../../src/http/http-app';
import { openDatabase, type Database } from '../../src/database';
import { PostgresDatabase } from '../../src/database/postgres-database';
import { createRecordingLogger, createTcpProxy, createTestDatabase, waitFor, type TcpProxy } from '../../src/testing';
import type { TestDatabase } from '../../src/testing/postgres';
import { listen } from '../listen';

/**
 * What a service sees when its PostgreSQL restarts, fails over or is down: no crash, a 503 with
 * Retry-After while it lasts, one log line when it starts and one when it ends, and service again
 * as soon as the server is back.
 */
describe('PostgreSQL faults', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let db: Database;
  const logger = createRecordingLogger();
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    testDb = await createTestDatabase();
    const url = new URL(testDb.url);
    proxy = await createTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `${proxy.address.host}:${proxy.address.port}`;
    db = await openDatabase({ databaseUrl: url.toString(), logger });
    await db.query('CREATE TABLE counter (id int PRIMARY KEY, value int NOT NULL)');
    await db.query('INSERT INTO counter VALUES (1, 0)');
  });
  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    await db?.close();
    await proxy?.close();
    await testDb?.drop();
  });

  it('when the server ends a connection in the middle of a transaction, then the call fails with 503, nothing is committed, the process lives and the next call works', async () => {
    const admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    try {
      const transaction = db.transaction(async (tx) => {
        await tx.query('UPDATE counter SET value = value + 1 WHERE id = 1');
        // What `pg_ctlcluster … restart` does to every session: terminate the backend (57P01).
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        await tx.query('SELECT pg_sleep(0.1)');
      });
      await expect(transaction).rejects.toBeInstanceOf(ServiceUnavailableError);
    } finally {
      await admin.end();
    }
    expect(crashes).toEqual([]);
    expect((await db.query<{ value: number }>('SELECT value FROM counter WHERE id = 1')).rows).toEqual([{ value: 0 }]);
  });

  it('when the server is unreachable, then every call answers 503 with Retry-After, the outage is logged once (its stragglers too), and calls succeed once it is back', async () => {
    const router = Router();
    router.get('/count', async (_req, res) => {
      const { rows } = await db.query<{ value: number }>('SELECT value FROM counter WHERE id = 1');
      res.json(rows[0]);
    });
    router.post('/increment', async (_req, res) => {
      await db.transaction((tx) => tx.query('UPDATE counter SET value = value + 1 WHERE id = 1'));
      res.status(204).end();
    });
    const app = createHttpApp({ logger, services: [{ router }] });
    const server = await listen(app);
    const before = logger.entries.length;
    const outageLines = () =>
      logger.entries.slice(before).filter((entry) => /PostgreSQL is (unreachable|reachable again)/.test(entry.message));
    try {
      await proxy.cut();
      const answers = [];
      for (let i = 0; i < 5; i += 1) {
        answers.push(await fetch(`${server.url}/count`));
        answers.push(await fetch(`${server.url}/increment`, { method: 'POST' }));
      }
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.headers.get('content-type')).toMatch(/application\/json/);
        expect(await answer.json()).toEqual({ message: 'The database is unavailable, please try again shortly' });
      }
      expect(outageLines().map((entry) => entry.level)).toEqual(['warn']);
      expect(logger.entries.slice(before).filter((entry) => entry.level === 'error')).toEqual([]);

      await proxy.restore();
      expect((await fetch(`${server.url}/increment`, { method: 'POST' })).status).toBe(204);
      expect(await (await fetch(`${server.url}/count`)).json()).toEqual({ value: 1 });
      expect(outageLines().map((entry) => entry.level)).toEqual(['warn', 'info']);

      // Once it is back, a pooled connection the restart cut fails when next used, while new ones open: a
      // straggler of that outage, answered 503 but logged neither as a new outage nor as its end.
      const admin = new pg.Client({ connectionString: testDb.url });
      await admin.connect();
      const cutMidTransaction = () =>
        db.transaction(async (tx) => {
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
          );
          await tx.query('SELECT pg_sleep(0.1)');
        });
      try {
        await expect(cutMidTransaction()).rejects.toBeInstanceOf(ServiceUnavailableError);
        expect((await fetch(`${server.url}/count`)).status).toBe(200);
        expect(outageLines().map((entry) => entry.level)).toEqual(['warn', 'info']);

        // A cut long after the outage ended is a new restart: logged, and its end too.
        const now = Date.now();
        const later = jest.spyOn(Date, 'now').mockReturnValue(now + 60_000);
        try {
          await expect(cutMidTransaction()).rejects.toBeInstanceOf(ServiceUnavailableError);
          expect((await fetch(`${server.url}/count`)).status).toBe(200);
        } finally {
          later.mockRestore();
        }
        expect(outageLines().map((entry) => entry.level)).toEqual(['warn', 'info', 'warn', 'info']);
      } finally {
        await admin.end();
      }
      expect(crashes).toEqual([]);
    } finally {
      await proxy.restore();
      await server.close();
    }
  });

  it('when a black-hole partition drops every packet (no reset), then calls answer 503 within the query and connect timeouts, and succeed once it heals', async () => {
    const url = new URL(testDb.url);
    const holeProxy = await createTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `${holeProxy.address.host}:${holeProxy.address.port}`;
    const bounded = new PostgresDatabase({
      connectionString: url.toString(),
      connectionTimeoutMs: 1000,
      queryTimeoutMs: 1500,
      logger,
    });
    try {
      expect((await bounded.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      holeProxy.blackhole();
      // A pooled connection whose answers no longer come, and a new one whose handshake never completes.
      const started = Date.now();
      const calls = await Promise.allSettled([bounded.query('SELECT 1'), bounded.query('SELECT 2')]);
      for (const call of calls) {
        expect(call.status).toBe('rejected');
        expect((call as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
      }
      expect(Date.now() - started).toBeLessThan(5000);
      expect(crashes).toEqual([]);

      await holeProxy.restore();
      await waitFor(
        async () => ((await bounded.query('SELECT 1 AS one').catch(() => undefined))?.rows.length ? true : undefined),
        {
          what: 'a query answered after the partition healed',
        },
      );
    } finally {
      await bounded.close();
      await holeProxy.close();
    }
  });
});
