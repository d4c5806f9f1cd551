import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { captureLogger } from '../../test/capture-logger';
import { loadConfig } from '../config/load-config';
import { platformConfigSchema } from '../config/platform-config';
import { databasePort } from '../database/database-port';
import { eventBusPort } from '../messaging/event-bus-port';
import { createTestDatabase, type TestDatabase } from '../testing/postgres';
import { waitFor } from '../testing/wait-for';
import { adapterKinds, closePorts, dependenciesFor, openPorts, portReadiness, unionOfPorts } from './open-ports';
import type { Port } from './port';

/** Backends exit a moment after their client disconnects, so "none left" is awaited, not sampled. */
const noConnectionsLeft = (database: TestDatabase) =>
  waitFor(async () => (await connectionsTo(database)) === 0, { what: 'the database connections to close' });

async function connectionsTo(database: TestDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      'SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}

/** A port whose adapter records what happens to it; `failOpen` makes opening throw. */
function recordingPort(
  name: string,
  events: string[],
  { failOpen = false } = {},
): Port<{ kind: string; close(): Promise<void> }> {
  return {
    name,
    open() {
      if (failOpen) throw new Error(`${name} unreachable`);
      events.push(`open ${name}`);
      return { kind: `${name}-adapter`, close: async () => void events.push(`close ${name}`) };
    },
  };
}

describe('openPorts', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ports-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('when a cluster database is configured, then the ports use it, are ready, and closing releases the database connections', async () => {
    const config = loadConfig(platformConfigSchema, { DATABASE_URL: database.url, DATA_DIR: dataDir });
    const ports = { db: databasePort, bus: eventBusPort };
    const deps = await openPorts(ports, config, captureLogger().logger);
    expect(adapterKinds(ports, deps)).toEqual({ database: 'postgres', bus: 'in-process' });
    expect(Object.keys(portReadiness(ports, deps))).toEqual(['database', 'bus']);
    await expect(portReadiness(ports, deps).database()).resolves.toBeDefined();
    expect(await connectionsTo(database)).toBeGreaterThan(0);
    await closePorts(ports, deps);
    await noConnectionsLeft(database);
  });

  it('when a later port cannot be opened, then the ones already opened are closed and the error surfaces', async () => {
    const config = loadConfig(platformConfigSchema, { DATABASE_URL: database.url, DATA_DIR: dataDir });
    const events: string[] = [];
    const ports = {
      db: databasePort,
      first: recordingPort('first', events),
      broken: recordingPort('broken', events, { failOpen: true }),
    };
    await expect(openPorts(ports, config, captureLogger().logger)).rejects.toThrow('broken unreachable');
    expect(events).toEqual(['open first', 'close first']);
    await noConnectionsLeft(database);
  });

  it('when ports are closed, then the last opened closes first, and every one is closed even if one fails', async () => {
    const events: string[] = [];
    const failing: Port = {
      name: 'failing',
      open: () => ({ kind: 'x', close: () => Promise.reject(new Error('close failed')) }),
    };
    const ports = { a: recordingPort('a', events), failing, b: recordingPort('b', events) };
    const deps = await openPorts(ports, loadConfig(platformConfigSchema, {}), captureLogger().logger);
    await expect(closePorts(ports, deps)).rejects.toThrow('close failed');
    expect(events).toEqual(['open a', 'open b', 'close b', 'close a']);
  });
});

describe('ports shared by several services', () => {
  it('when services declare ports, then each port is opened once and each service receives only its own', async () => {
    const events: string[] = [];
    const db = recordingPort('db', events);
    const bus = recordingPort('bus', events);
    const objects = recordingPort('objects', events);
    const union = unionOfPorts([
      { db, bus },
      { db, bus, objects },
    ]);
    expect(Object.keys(union)).toEqual(['db', 'bus', 'objects']);

    const deps = await openPorts(union, loadConfig(platformConfigSchema, {}), captureLogger().logger);
    expect(events).toEqual(['open db', 'open bus', 'open objects']);
    const audit = dependenciesFor({ db, bus }, deps);
    expect(Object.keys(audit)).toEqual(['logger', 'db', 'bus']);
    expect(audit.db).toBe(deps.db);
    expect(() => dependenciesFor({ mailer: recordingPort('mailer', events) }, deps)).toThrow('"mailer" is not open');
  });

  it('when two different ports are declared under one key, then they are refused', () => {
    expect(() => unionOfPorts([{ db: recordingPort('one', []) }, { db: recordingPort('two', []) }])).toThrow('"db"');
  });
});
