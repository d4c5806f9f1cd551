import { Router } from 'express';
import { captureLogger } from '../../test/capture-logger';
import { listen } from '../../test/listen';
import { createHttpApp } from './http-app';
import { rateLimit } from './rate-limit';

describe('rateLimit', () => {
  it('when keyed by something other than the address, then each key has its own budget', async () => {
    const router = Router();
    router.get(
      '/api/incident/discloser',
      rateLimit({
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

  it('when only failures count, then successful requests never exhaust the budget', async () => {
    const router = Router();
    router.post(
      '/api/account/token',
      rateLimit({ windowMs: 60_000, limit: 2, skipSuccessfulRequests: true }),
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
});
