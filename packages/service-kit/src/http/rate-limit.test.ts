import { Router } from 'express';
import { captureLogger } from '../../test/capture-logger';
import { listen } from '../../test/listen';
import { createHttpApp } from './http-app';
import { openDatabase } from '../database/open-database';
import { migrate } from '../database/migrate';
import type { Database } from '../database/database';
import { createTestDatabase, type TestDatabase } from '../testing/postgres';
import { rateLimit } from './rate-limit';
import { rateLimitMigrations, sharedRateLimitCounters } from './rate-limit-counters';

describe('rateLimit', () => {
  it('when keyed by something other than the address, then each key has its own budget', async () => {
    const router = Router();
    router.get(
      '/api/incident/discloser',
      rateLimit({
        name: 'retrieval',
        windowMs: 60_000,
        limit: 1,
        key: (req) => String(req.query.retrieval_id),
        message: 'Too many retrieval attempts',
      }),
      (_req, res) => {
        res.json({ ok: true });
      },
    );
    const { logger, lines } = captureLogger();
    const server = await listen(createHttpApp({ logger, services: [{ router }] }));
    try {
      const ask = (id: string) => fetch(`${server.url}/api/incident/discloser?retrieval_id=${id}`);
      expect((await ask('first-id')).status).toBe(200);
      const limited = await ask('first-id');
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ message: 'Too many retrieval attempts' });
      expect((await ask('second-id')).status).toBe(200);
      expect(lines.join('')).not.toContain('first-id');
    } finally {
      await server.close();
    }
  });

  it('when a limit slows down instead of refusing, then requests past it are served, each later than the last', async () => {
    const router = Router();
    const waits: number[] = [];
    router.post(
      '/api/account/token',
      rateLimit({
        name: 'slow-login',
        windowMs: 60_000,
        limit: 2,
        skipSuccessfulRequests: true,
        slowDownMs: (over) => {
          waits.push(over * 10);
          return over * 10;
        },
      }),
      (_req, res) => {
        res.status(401).json({ message: 'Invalid email or password' });
      },
    );
    const { logger } = captureLogger();
    const server = await listen(createHttpApp({ logger, services: [{ router }] }));
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1)
        statuses.push((await fetch(`${server.url}/api/account/token`, { method: 'POST' })).status);
      // Never a 429: the three past the limit were held 10, 20 and 30 ms, then answered as usual.
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect(waits).toEqual([10, 20, 30]);
    } finally {
      await server.close();
    }
  });

  it('when only failures count, then successful requests never exhaust the budget', async () => {
    const router = Router();
    router.post(
      '/api/account/token',
      rateLimit({ name: 'login', windowMs: 60_000, limit: 2, skipSuccessfulRequests: true }),
      (req, res) => {
        res.status(req.query.fail ? 401 : 200).json({});
      },
    );
    const { logger } = captureLogger();
    const server = await listen(createHttpApp({ logger, services: [{ router }] }));
    try {
      const login = (fail: boolean) =>
        fetch(`${server.url}/api/account/token${fail ? '?fail=1' : ''}`, { method: 'POST' });
      for (let attempt = 0; attempt < 4; attempt += 1) expect((await login(false)).status).toBe(200);
      expect((await login(true)).status).toBe(401);
      expect((await login(true)).status).toBe(401);
      expect((await login(true)).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  describe('with counters shared in PostgreSQL', () => {
    let database: TestDatabase;
    const opened: Database[] = [];
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await Promise.all(opened.map((db) => db.close()));
      await database?.drop();
    });

    /** One replica of a service: its own pool, its own HTTP app, the service's shared secret. */
    async function replica() {
      const db = await openDatabase({ databaseUrl: database.url });
      opened.push(db);
      await migrate(db, 'limited', rateLimitMigrations('limited'));
      const counters = sharedRateLimitCounters({ db, schema: 'limited', secret: 'the service secret' });
      const router = Router();
      const limited = (name: string) =>
        rateLimit({ name, counters, windowMs: 60_000, limit: 2, skipSuccessfulRequests: true });
      router.post('/api/account/token', limited('login'), (req, res) => {
        res.status(req.query.fail ? 401 : 200).json({});
      });
      router.post('/api/account/token/mfa', limited('mfa'), (_req, res) => {
        res.status(401).json({});
      });
      router.post('/api/report', rateLimit({ name: 'report', counters, windowMs: 60_000, limit: 5 }), (_req, res) => {
        res.status(201).json({});
      });
      const { logger } = captureLogger();
      return listen(createHttpApp({ logger, services: [{ router }] }));
    }

    it('when a client fails on two replicas, then the third try is refused on either, other limiters keep their own count, and no address is stored', async () => {
      const [first, second] = await Promise.all([replica(), replica()]);
      try {
        const login = (server: { url: string }, fail = true) =>
          fetch(`${server.url}/api/account/token${fail ? '?fail=1' : ''}`, { method: 'POST' });
        expect((await login(first, false)).status).toBe(200);
        expect((await login(first)).status).toBe(401);
        expect((await login(second)).status).toBe(401);
        expect((await login(first)).status).toBe(429);
        expect((await login(second)).status).toBe(429);
        // The MFA limiter counts apart, though its key (the client address) is the same.
        expect((await fetch(`${second.url}/api/account/token/mfa`, { method: 'POST' })).status).toBe(401);
        const { rows } = await opened[0]!.query<{ key: string; hits: number }>(
          'SELECT key, hits FROM limited.rate_limit_counter ORDER BY key',
        );
        // Two failures and the two refusals (a refused try counts too, as in the in-memory store).
        expect(rows.map((row) => [row.key.split(':')[0], row.hits])).toEqual([
          ['login', 4],
          ['mfa', 1],
        ]);
        expect(JSON.stringify(rows)).not.toMatch(/127\.0\.0\.1|::1|::ffff/);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });

    it('when a client sends many requests at once to two replicas, then their counts are batched yet exact: the limit passes, the rest are refused, each request counted once', async () => {
      const [first, second] = await Promise.all([replica(), replica()]);
      try {
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            fetch(`${(index % 2 ? first : second).url}/api/report`, { method: 'POST' }).then((res) => res.status),
          ),
        );
        expect(answers.filter((status) => status === 201)).toHaveLength(5);
        expect(answers.filter((status) => status === 429)).toHaveLength(35);
        const { rows } = await opened[0]!.query<{ hits: number }>(
          "SELECT hits FROM limited.rate_limit_counter WHERE key LIKE 'report:%'",
        );
        expect(rows).toEqual([{ hits: 40 }]);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });

    it('when a replica restarts, then it still counts the window the others counted', async () => {
      const warmup = await replica();
      try {
        for (let i = 0; i < 3; i += 1) await fetch(`${warmup.url}/api/account/token?fail=1`, { method: 'POST' });
      } finally {
        await warmup.close();
      }
      // A replica started afterwards (a restart) still counts the same window.
      const restarted = await replica();
      try {
        expect((await fetch(`${restarted.url}/api/account/token?fail=1`, { method: 'POST' })).status).toBe(429);
      } finally {
        await restarted.close();
      }
    });
  });
});
