/* eslint-disable max-lines -- every behaviour of the one HTTP app every service is built on, sharing its fixtures. */
import http from 'node:http';
import { Router } from 'express';
import { z } from 'zod';
import { requiredWhenMissing } from '@whistle/contracts';
import { captureLogger } from '../../test/capture-logger';
import { listen } from '../../test/listen';
import { ConflictError, NotAllowedError } from '../errors/errors';
import { createHttpApp } from './http-app';
import type { ReadinessReport } from './health';
import { clientAddress, rateLimit } from './rate-limit';
import { parseBody, parseQuery } from './validation';

const thingSchema = z.object({
  name: z.string().min(1),
  credential: z.object({ aes_iv: z.string(), aes_salt: z.string() }),
});

function testRouter(): Router {
  const router = Router();
  router.post('/api/things/', (req, res) => {
    const thing = parseBody(thingSchema, req.body);
    res.status(201).json({ name: thing.name });
  });
  router.post('/api/people/', (req, res) => {
    const person = parseBody(
      z.object({
        full_name: z.string({ error: requiredWhenMissing }).trim().min(1, 'This field is required').max(200),
      }),
      req.body,
    );
    res.status(201).json(person);
  });
  router.get('/api/things/', (req, res) => {
    const query = parseQuery(z.object({ page: z.coerce.number().int().positive().default(1) }), req.query);
    res.json({ page: query.page });
  });
  router.get('/api/incident/:incident_uuid', (req, res) => {
    res.json({ id: req.params.incident_uuid });
  });
  router.get('/api/crash', () => {
    throw new Error('database said: row 42 has secret-detail');
  });
  router.get('/api/async-crash', async () => {
    await Promise.resolve();
    throw new TypeError('async secret-detail');
  });
  router.get('/api/conflict', async () => {
    throw new ConflictError('An account using this email domain already exists', { exists: true });
  });
  router.get('/api/forbidden', async () => {
    throw new NotAllowedError();
  });
  router.get('/api/zod', () => {
    z.object({ a: z.object({ b: z.number() }) }).parse({ a: { b: 'x' } });
  });
  router.get('/api/half-sent', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"partial":');
    throw new Error('failed mid-answer');
  });
  router.post(
    '/api/limited',
    rateLimit({ name: 'limited', windowMs: 60_000, limit: 2, key: clientAddress, message: 'Too many attempts' }),
    (_req, res) => {
      res.status(204).end();
    },
  );
  return router;
}

describe('createHttpApp', () => {
  const { logger, lines, entries } = captureLogger();
  let readiness: ReadinessReport | Error = { checks: { database: true }, reasons: {} };
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const app = createHttpApp({
      logger,
      services: [{ router: testRouter() }],
      bodyLimit: '1kb',
      readiness: async () => {
        if (readiness instanceof Error) throw readiness;
        return readiness;
      },
    });
    server = await listen(app);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    lines.length = 0;
  });

  const post = (path: string, body: string, contentType = 'application/json') =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  describe('security headers', () => {
    it('when any answer is sent, then it carries a strict API CSP, no referrer, no-store and no x-powered-by', async () => {
      const response = await fetch(`${server.url}/api/things/`);
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
      );
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-powered-by')).toBeNull();
    });
  });

  describe('validation', () => {
    it('when a valid JSON body is posted, then the handler receives it', async () => {
      const response = await post(
        '/api/things/',
        JSON.stringify({ name: 'a', credential: { aes_iv: 'i', aes_salt: 's' } }),
      );
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ name: 'a' });
    });

    it('when fields are missing or invalid, then 400 lists errors per dot-joined field path', async () => {
      const response = await post('/api/things/', JSON.stringify({ name: '', credential: { aes_iv: 1 } }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        message: 'Invalid request body',
        errors: {
          name: [expect.any(String)],
          'credential.aes_iv': ['Invalid input: expected string, received number'],
          'credential.aes_salt': ['This field is required'],
        },
      });
    });

    it.each([
      [{}, 'This field is required'],
      [{ full_name: '   ' }, 'This field is required'],
      [{ full_name: 'x'.repeat(201) }, 'Ensure this field has no more than 200 characters'],
      [{ full_name: 42 }, 'Invalid input: expected string, received number'],
    ])('when full_name is %j, then the message is %p', async (body, message) => {
      const response = await post('/api/people/', JSON.stringify(body));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: 'Invalid request body', errors: { full_name: [message] } });
    });

    it('when the body is absent, then every required field is reported by name', async () => {
      const response = await fetch(`${server.url}/api/things/`, { method: 'POST' });
      expect(response.status).toBe(400);
      expect((await response.json()).errors).toEqual({
        name: ['This field is required'],
        credential: ['This field is required'],
      });
    });

    it('when a query parameter is invalid, then 400 names it', async () => {
      const response = await fetch(`${server.url}/api/things/?page=zero`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        message: 'Invalid query parameters',
        errors: { page: [expect.any(String)] },
      });
      expect(await (await fetch(`${server.url}/api/things/?page=3`)).json()).toEqual({ page: 3 });
    });

    it('when a handler lets a ZodError escape, then it still becomes a 400 with per-field errors', async () => {
      const response = await fetch(`${server.url}/api/zod`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: 'Invalid request', errors: { 'a.b': [expect.any(String)] } });
    });
  });

  describe('body parsing failures', () => {
    it('when the JSON is malformed, then 400 "Malformed JSON body" as JSON', async () => {
      const response = await post('/api/things/', '{"name": ');
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ message: 'Malformed JSON body' });
    });

    it('when the body exceeds the limit, then 413 as JSON, and a body too large to read is not read to its end', async () => {
      const response = await post('/api/things/', JSON.stringify({ name: 'x'.repeat(2000) }));
      expect(response.status).toBe(413);
      // The answer comes while the client is still sending: it needs not wait for 8 MB to go first.
      const early = await new Promise<number | undefined>((resolve, reject) => {
        const request = http.request(`${server.url}/api/things/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': 8_000_000 },
        });
        request.on('response', (response) => {
          resolve(response.statusCode);
          request.destroy();
        });
        request.on('error', reject);
        request.write('{"name":"');
      });
      expect(early).toBe(413);
      const huge = await post('/api/things/', JSON.stringify({ name: 'x'.repeat(8_000_000) }));
      expect(huge.status).toBe(413);
      expect(await response.json()).toEqual({ message: 'Payload Too Large' });
    });

    it('when the body has a type no parser reads, then 415 as JSON', async () => {
      const response = await post('/api/things/', 'name=a', 'text/plain');
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ message: 'Unsupported Media Type' });
    });

    it.each([
      ['a NUL byte in a value', '{"name":"a\\u0000b","credential":{"aes_iv":"x","aes_salt":"y"}}', 'name', 'NUL'],
      [
        'a lone surrogate in a value',
        '{"name":"\\ud800x","credential":{"aes_iv":"x","aes_salt":"y"}}',
        'name',
        'Unicode',
      ],
      [
        'a lone low surrogate one level down',
        '{"name":"a","credential":{"aes_iv":"\\udc00","aes_salt":"y"}}',
        'credential.aes_iv',
        'Unicode',
      ],
      ['a NUL byte in a key', '{"na\\u0000me":"a"}', 'na?me', 'NUL'],
    ])(
      'when the body holds %s, then 400 names the field and the handler never runs',
      async (_case, body, field, reason) => {
        const response = await post('/api/things/', body);
        expect(response.status).toBe(400);
        const answer = (await response.json()) as { message: string; errors: Record<string, string[]> };
        expect(answer.message).toBe('Invalid request body');
        expect(answer.errors[field]?.[0]).toContain(reason);
      },
    );

    it('when a query parameter holds a NUL byte, then 400 names it', async () => {
      const response = await fetch(`${server.url}/api/things/?page=1%00`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        message: 'Invalid query parameters',
        errors: { page: [expect.stringContaining('NUL')] },
      });
    });

    it('when the body nests deeper than any payload, then 400 rather than a stack overflow', async () => {
      const response = await post('/api/things/', `${'['.repeat(400)}${']'.repeat(400)}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: 'Invalid request body' });
    });

    it('when text is well-formed Unicode (emoji, accents), then it passes untouched', async () => {
      const response = await post(
        '/api/things/',
        JSON.stringify({ name: 'Zoë 🐳 ✓', credential: { aes_iv: 'x', aes_salt: 'y' } }),
      );
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ name: 'Zoë 🐳 ✓' });
    });

    it('when a form is posted, then it is parsed like JSON would be', async () => {
      const response = await post('/api/things/', 'name=a&credential=x', 'application/x-www-form-urlencoded');
      expect(response.status).toBe(400);
      expect(Object.keys((await response.json()).errors)).toEqual(['credential']);
    });
  });

  describe('error mapping', () => {
    it('when a handler throws an unknown error, then 500 with a generic message and the stack only in the log', async () => {
      const response = await fetch(`${server.url}/api/crash`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ message: 'Internal Server Error' });
      expect(text).not.toContain('secret-detail');
      const logged = entries().find((entry) => entry.msg === 'request failed');
      expect(logged).toMatchObject({
        level: 'error',
        status: 500,
        route: '/api/crash',
        err: { stack: expect.stringContaining('secret-detail') },
      });
    });

    it('when an async handler rejects, then express 5 forwards it to the same 500 answer', async () => {
      const response = await fetch(`${server.url}/api/async-crash`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: 'Internal Server Error' });
    });

    it('when a domain error carries details, then they join the JSON body and nothing is logged as error', async () => {
      const response = await fetch(`${server.url}/api/conflict`);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        message: 'An account using this email domain already exists',
        exists: true,
      });
      expect((await fetch(`${server.url}/api/forbidden`)).status).toBe(403);
      expect(entries().filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('when no route matches, then 404 JSON', async () => {
      const response = await fetch(`${server.url}/api/nothing-here?retrieval_id=abc`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'Not Found' });
    });

    it('when a handler fails after the answer started, then the connection is cut instead of appending an error', async () => {
      await expect(fetch(`${server.url}/api/half-sent`).then((response) => response.text())).rejects.toThrow();
    });
  });

  describe('rate limiting', () => {
    it('when a client exceeds the limit, then 429 JSON with Retry-After', async () => {
      expect((await post('/api/limited', '{}')).status).toBe(204);
      expect((await post('/api/limited', '{}')).status).toBe(204);
      const limited = await post('/api/limited', '{}');
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ message: 'Too many attempts' });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    });
  });

  describe('request log', () => {
    it('when a request is served, then the log has method, route template, status and duration, and no client detail', async () => {
      const id = '3b8f4c1e-8a0e-4c55-9a3e-1f2d3c4b5a69';
      await fetch(`${server.url}/api/incident/${id}?retrieval_id=secret-retrieval`, {
        headers: { 'user-agent': 'DiscloserBrowser/1.0', authorization: 'Bearer secret-token' },
      });
      const requestLines = entries().filter((entry) => entry.msg === 'request');
      expect(requestLines).toEqual([
        expect.objectContaining({
          method: 'GET',
          route: '/api/incident/:incident_uuid',
          status: 200,
          duration_ms: expect.any(Number),
        }),
      ]);
      const all = lines.join('');
      for (const forbidden of [id, 'secret-retrieval', 'DiscloserBrowser', 'secret-token', '127.0.0.1'])
        expect(all).not.toContain(forbidden);
    });

    it('when no route matches, then the concrete path is not logged', async () => {
      await fetch(`${server.url}/disclose/acme/secret-path`);
      expect(entries().find((entry) => entry.msg === 'request')).toMatchObject({ route: '(unmatched)', status: 404 });
      expect(lines.join('')).not.toContain('secret-path');
    });
  });

  describe('request log behind a proxy', () => {
    it('when requests carry a query, an X-Forwarded-For and a User-Agent, then no log line at any level holds them', async () => {
      const proxied = await listen(
        createHttpApp({ logger, services: [{ router: testRouter() }], bodyLimit: '1kb', trustProxy: 1 }),
      );
      try {
        const client = {
          'user-agent': 'DiscloserBrowser/7.3 (unique-fingerprint)',
          'x-forwarded-for': '203.0.113.77',
          referer: 'https://intranet.example/LEAK-referrer',
        };
        const asked = [
          fetch(`${proxied.url}/api/incident/discloser?url_identifier=acme&retrieval_id=retrieval-LEAK`, {
            headers: client,
          }),
          fetch(`${proxied.url}/api/things/?page=query-LEAK`, { headers: client }), // 400, logged at debug
          fetch(`${proxied.url}/api/crash?token=token-LEAK`, { headers: client }), // 500, logged as error (the error's own text says secret-detail)
          fetch(`${proxied.url}/disclose/acme?code=code-LEAK`, { headers: client }), // no route
          ...[1, 2, 3].map(() => fetch(`${proxied.url}/api/limited?x=limit-LEAK`, { method: 'POST', headers: client })),
        ];
        const statuses = (await Promise.all(asked)).map((response) => response.status);
        expect(statuses.slice(0, 4)).toEqual([200, 400, 500, 404]);
        expect(statuses.slice(4).sort()).toEqual([204, 204, 429]);
        const requestLines = entries().filter((entry) => entry.msg === 'request');
        expect(requestLines).toHaveLength(asked.length);
        for (const entry of requestLines)
          expect(Object.keys(entry).sort()).toEqual(
            ['duration_ms', 'hostname', 'level', 'method', 'msg', 'name', 'pid', 'route', 'status', 'time'].sort(),
          );
        const written = lines.join('');
        for (const secret of ['LEAK', 'DiscloserBrowser', 'fingerprint', '203.0.113.77', '127.0.0.1', 'intranet'])
          expect({ secret, found: written.includes(secret) }).toEqual({ secret, found: false });
      } finally {
        await proxied.close();
      }
    });
  });

  describe('health', () => {
    it('when /healthz is asked, then 200', async () => {
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    });

    it('when every readiness check passes, then /readyz answers 200 with the checks', async () => {
      readiness = { checks: { database: true, bus: true }, reasons: {} };
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', checks: { database: true, bus: true } });
    });

    it('when a readiness check fails, then /readyz answers 503 naming it and why', async () => {
      readiness = { checks: { database: true, bus: false }, reasons: { bus: 'RabbitMQ is not connected' } };
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        message: 'Service Unavailable',
        failed: ['bus'],
        checks: { database: true, bus: false },
        reasons: { bus: 'RabbitMQ is not connected' },
      });
    });

    it('when the readiness function itself throws, then /readyz answers 503', async () => {
      readiness = new Error('probe crashed');
      expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    });
  });
});
