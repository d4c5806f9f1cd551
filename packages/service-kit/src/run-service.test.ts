import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Router } from 'express';
import { z } from 'zod';
import { platformConfigSchema } from './config/platform-config';
import { databasePort } from './database/database-port';
import { eventBusPort } from './messaging/event-bus-port';
import type { ServiceDependencies } from './ports/port';
import { runService } from './run-service';
import type { WhistleService } from './service';
import { createTestDatabase, type TestDatabase } from './testing/postgres';

/** A promise with its resolve function, to hold a request open. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const schema = platformConfigSchema.extend({ GREETING: z.string() });
const ports = { db: databasePort, bus: eventBusPort };
type Deps = ServiceDependencies<typeof ports>;

describe('runService', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  const signalListeners = () => process.listenerCount('SIGTERM');

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'run-service-'));
    env = {
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      GREETING: 'hello',
      PUBLIC_URL: 'https://whistle.example.com',
    };
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  /** A service whose `/api/slow` answers only when the test releases it; records its lifecycle. */
  function slowService(events: string[], release: Promise<void>, requestArrived: () => void) {
    let deps: Deps | undefined;
    const create = (opened: Deps, config: z.output<typeof schema>): WhistleService => {
      deps = opened;
      const router = Router();
      router.get('/api/greeting', (_req, res) => {
        res.json({ greeting: config.GREETING });
      });
      router.get('/api/slow', async (_req, res) => {
        events.push('request started');
        requestArrived();
        await release;
        events.push('request answered');
        res.json({ done: true });
      });
      return {
        name: 'test',
        router,
        start: async () => void events.push('service started'),
        stop: async () => void events.push('service stopped'),
      };
    };
    return { create, deps: () => deps };
  }

  it('when started, then it serves the service, /healthz and a ready /readyz on PORT', async () => {
    const events: string[] = [];
    const service = slowService(events, Promise.resolve(), () => undefined);
    const exit = jest.fn();
    const running = await runService({ name: 'test', configSchema: schema, ports, create: service.create, env, exit });
    expect(running).toBeDefined();
    try {
      const base = `http://127.0.0.1:${running!.port}`;
      expect(await (await fetch(`${base}/api/greeting`)).json()).toEqual({ greeting: 'hello' });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', checks: { database: true, bus: true, accepting: true } });
      // The declared ports, nothing else: no object store or mailer is opened for a service without them.
      expect(Object.keys(service.deps()!)).toEqual(['logger', 'db', 'bus']);
      expect(service.deps()).toMatchObject({ db: { kind: 'postgres' }, bus: { kind: 'in-process' } });
    } finally {
      await running!.shutdown('test');
    }
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('when SIGTERM arrives during a request, then new connections are refused, the request completes, then the service stops, dependencies close and the process exits 0', async () => {
    const events: string[] = [];
    const release = deferred();
    const arrived = deferred();
    const service = slowService(events, release.promise, arrived.resolve);
    const exited = deferred();
    const exit = jest.fn(() => {
      events.push('exit');
      exited.resolve();
    });
    const listenersBefore = signalListeners();
    const running = await runService({ name: 'test', configSchema: schema, ports, create: service.create, env, exit });
    expect(signalListeners()).toBe(listenersBefore + 1);
    const base = `http://127.0.0.1:${running!.port}`;

    const inFlight = fetch(`${base}/api/slow`);
    await arrived.promise;
    process.emit('SIGTERM');

    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    expect(events).toEqual(['service started', 'request started']);
    release.resolve();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
    expect(await answer.json()).toEqual({ done: true });

    await exited.promise;
    expect(exit).toHaveBeenCalledWith(0);
    expect(events).toEqual(['service started', 'request started', 'request answered', 'service stopped', 'exit']);
    await expect(service.deps()!.db.query('SELECT 1')).rejects.toThrow();
    expect(signalListeners()).toBe(listenersBefore);
  });

  /** A GET whose client gives up (closes its socket) once the handler has the request. */
  async function abandonedRequest(url: string, arrived: Promise<void>): Promise<void> {
    const request = http.get(url);
    request.on('error', () => undefined);
    const closed = new Promise((resolve) => request.once('close', resolve));
    await arrived;
    request.destroy();
    await closed;
  }

  it('when the client of a request leaves and SIGTERM follows, then its handler still finishes its queries before the pool closes', async () => {
    const events: string[] = [];
    const release = deferred();
    const arrived = deferred();
    let deps: Deps | undefined;
    const create = (opened: Deps): WhistleService => {
      deps = opened;
      const router = Router();
      router.get('/api/slow', async (_req, res) => {
        arrived.resolve();
        await release.promise;
        try {
          await opened.db.query('SELECT 1');
          events.push('queried');
        } catch (error) {
          events.push(`query failed: ${(error as Error).message}`);
        }
        res.json({ done: true });
      });
      return {
        name: 'test',
        router,
        start: async () => undefined,
        stop: async () => void events.push('service stopped'),
      };
    };
    const exited = deferred();
    const exit = jest.fn(() => {
      events.push('exit');
      exited.resolve();
    });
    const running = await runService({ name: 'test', configSchema: schema, ports, create, env, exit });

    await abandonedRequest(`http://127.0.0.1:${running!.port}/api/slow`, arrived.promise);
    const stopping = running!.shutdown('test');
    // The socket is gone: only the handler keeps the shutdown waiting (before, the pool closed under it).
    await Promise.race([exited.promise, sleep(500)]);
    release.resolve();
    await stopping;

    expect(events).toEqual(['queried', 'service stopped', 'exit']);
    expect(exit).toHaveBeenCalledWith(0);
    await expect(deps!.db.query('SELECT 1')).rejects.toThrow();
  });

  it('when a request was answered at once and SIGTERM follows, then the shutdown does not wait for it', async () => {
    const events: string[] = [];
    const service = slowService(events, Promise.resolve(), () => undefined);
    const exit = jest.fn();
    // A grace period longer than the test's timeout: waiting for it fails the test.
    const running = await runService({
      name: 'test',
      configSchema: schema,
      ports,
      create: service.create,
      env,
      exit,
      shutdownGraceMs: 60_000,
    });
    // `/healthz` answers in the same tick as the request arrives: before any later 'request' listener runs.
    expect((await fetch(`http://127.0.0.1:${running!.port}/healthz`)).status).toBe(200);
    await running!.shutdown('test');
    expect(exit).toHaveBeenCalledWith(0);
  }, 10_000);

  it('when a handler never finishes, then shutdown still ends after the grace period', async () => {
    const arrived = deferred();
    const create = (): WhistleService => {
      const router = Router();
      router.get('/api/stuck', () => arrived.resolve());
      return { name: 'test', router, start: async () => undefined, stop: async () => undefined };
    };
    const exit = jest.fn();
    const running = await runService({
      name: 'test',
      configSchema: schema,
      ports,
      create,
      env,
      exit,
      shutdownGraceMs: 300,
    });

    await abandonedRequest(`http://127.0.0.1:${running!.port}/api/stuck`, arrived.promise);
    const started = Date.now();
    await running!.shutdown('test');
    expect(exit).toHaveBeenCalledWith(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('when the configuration is invalid, then nothing is created and the process exits 1', async () => {
    const create = jest.fn();
    const exit = jest.fn();
    const running = await runService({
      name: 'test',
      configSchema: schema,
      ports,
      create,
      env: { ...env, PORT: 'eighty', GREETING: '' },
      exit,
    });
    expect(running).toBeUndefined();
    expect(create).not.toHaveBeenCalled();
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('when PUBLIC_URL is not set, then the service refuses to start: alone it cannot guess where its links point', async () => {
    const create = jest.fn();
    const exit = jest.fn();
    const { PUBLIC_URL: _unset, ...withoutPublicUrl } = env;
    const running = await runService({
      name: 'test',
      configSchema: schema,
      ports,
      create,
      env: withoutPublicUrl,
      exit,
    });
    expect(running).toBeUndefined();
    expect(create).not.toHaveBeenCalled();
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('when the service fails to start, then its dependencies are closed and the process exits 1', async () => {
    let deps: Deps | undefined;
    const exit = jest.fn();
    const running = await runService({
      name: 'test',
      configSchema: schema,
      ports,
      env,
      exit,
      create: (opened) => {
        deps = opened;
        return {
          name: 'broken',
          router: Router(),
          start: () => Promise.reject(new Error('migration failed')),
          stop: async () => undefined,
        };
      },
    });
    expect(running).toBeUndefined();
    expect(exit).toHaveBeenCalledWith(1);
    await expect(deps!.db.query('SELECT 1')).rejects.toThrow();
  });
});
