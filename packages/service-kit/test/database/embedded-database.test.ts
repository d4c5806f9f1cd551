import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { EMBEDDED_DATABASE_MISSING } from '../../src/database';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres';

const run = promisify(execFile);

/**
 * A service's image carries no PGlite (issue 28: 27 MB a cluster never runs): service-kit must load and serve
 * PostgreSQL without it, and say clearly what to set when the embedded database is asked for there.
 */
describe('service-kit without the embedded database installed', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(() => testDb.drop());

  it('when PGlite is not installed, then PostgreSQL works, PGlite is never loaded, and no DATABASE_URL says what to set', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--conditions=source',
        '-r',
        path.join(__dirname, '../../../../tools/register-ts.js'),
        path.join(__dirname, '../fixtures/without-pglite.ts'),
        testDb.url,
      ],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual({
      embedded: EMBEDDED_DATABASE_MISSING,
      postgres: { one: 1 },
      pgliteLoaded: false,
    });
  });
});
