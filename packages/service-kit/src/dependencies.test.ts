import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { startS3rver } from '../test/s3rver';
import { captureLogger } from '../test/capture-logger';
import { loadConfig } from './config/load-config';
import { platformConfigSchema } from './config/platform-config';
import { closeDependencies, openDependencies } from './dependencies';
import { createTestDatabase, type TestDatabase } from './testing/postgres';
import { waitFor } from './testing/wait-for';

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

describe('openDependencies', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'deps-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('when cluster adapters are configured, then each port uses them, and closing releases the database connections', async () => {
    const s3 = await startS3rver();
    const smtp = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    try {
      const config = loadConfig(platformConfigSchema, {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: 'deps-test',
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      });
      const deps = await openDependencies(config, captureLogger().logger);
      expect([deps.db.kind, deps.bus.kind, deps.objects.kind, deps.mailer.kind]).toEqual([
        'postgres',
        'in-process',
        's3',
        'smtp',
      ]);
      await deps.objects.put('probe', Buffer.from('x'));
      expect(await connectionsTo(database)).toBeGreaterThan(0);
      await closeDependencies(deps);
      await noConnectionsLeft(database);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await s3.stop();
    }
  });

  it('when a later dependency cannot be opened, then the ones already opened are closed and the error surfaces', async () => {
    const config = loadConfig(platformConfigSchema, {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      // Nothing listens on port 1: the bucket check fails.
      S3_ENDPOINT: 'http://127.0.0.1:1',
      S3_BUCKET: 'unreachable',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    await expect(openDependencies(config, captureLogger().logger)).rejects.toThrow();
    await noConnectionsLeft(database);
  });
});
