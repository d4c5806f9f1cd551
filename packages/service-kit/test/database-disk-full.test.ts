import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The standalone's database on a full disk, for real and without root (issue 30, item 2): a child process in a user
 * and mount namespace of its own (`unshare -rm`) runs PGlite on a 64 MB tmpfs, fills it, then serves writes and reads.
 */
describe('the database on a full disk', () => {
  let mountPoint: string;
  beforeAll(async () => {
    mountPoint = await mkdtemp(path.join(tmpdir(), 'pglite-full-'));
  });
  afterAll(() => rm(mountPoint, { recursive: true, force: true }));

  it('when a write finds the disk full (SQLSTATE 53100), then 503 with a clear message and Retry-After, logged once, and reads still answer', async () => {
    const node = [
      process.execPath,
      '--conditions=source',
      '-r',
      path.join(__dirname, '../../../tools/register-ts.js'),
      path.join(__dirname, 'fixtures/database-disk-full.ts'),
      mountPoint,
    ].map((word) => `'${word}'`);
    const { stdout } = await run(
      'unshare',
      ['-rm', 'sh', '-c', `mount -t tmpfs -o size=64m tmpfs '${mountPoint}' && exec ${node.join(' ')}`],
      { timeout: 240_000 },
    );
    const refusal = {
      status: 503,
      retryAfter: '30',
      body: { message: 'The server has no room to store data right now, please try again later' },
    };
    expect(JSON.parse(stdout)).toEqual({
      writes: [refusal, refusal],
      read: { status: 200, retryAfter: null, body: [{ body: 'kept' }] },
      log: [['warn', 'The database disk is full; writes answer 503 until space is freed']],
    });
  });
});
