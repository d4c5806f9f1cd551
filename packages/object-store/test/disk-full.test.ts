import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A full disk for real, without root: a 1 MB tmpfs mounted in a user and mount namespace of its own
 * (`unshare -rm`), where a child process stores more than fits (issue 30, item 2).
 */
describe('the disk store on a full disk', () => {
  let mountPoint: string;
  beforeAll(async () => {
    mountPoint = await mkdtemp(path.join(tmpdir(), 'objects-full-'));
  });
  afterAll(() => rm(mountPoint, { recursive: true, force: true }));

  it('when the disk is nearly full, then the store is not ready, naming the free space; when a put does not fit (ENOSPC), then 503 with a clear message, no partial file, logged once, and a put that fits still succeeds', async () => {
    const node = [
      process.execPath,
      '--conditions=source',
      '-r',
      path.join(__dirname, '../../../tools/register-ts.js'),
      path.join(__dirname, 'fixtures/fill-disk.ts'),
      mountPoint,
    ].map((word) => `'${word}'`);
    const { stdout } = await run('unshare', [
      '-rm',
      'sh',
      '-c',
      `mount -t tmpfs -o size=1m tmpfs '${mountPoint}' && exec ${node.join(' ')}`,
    ]);
    const outcome = JSON.parse(stdout) as Record<string, unknown>;
    const refusal = {
      name: 'ServiceUnavailableError',
      status: 503,
      message: 'The server has no room to store files right now, please try again later',
      retryAfter: 5,
      cause: 'ENOSPC',
    };
    expect(outcome).toEqual({
      readiness: 'The data disk has 1 MiB free, under 64 MiB',
      reasons: { objects: 'The data disk has 1 MiB free, under 64 MiB' },
      first: refusal,
      second: refusal,
      leftovers: [],
      visible: false,
      small: { stored: true },
      freeMetric: [{ labels: { store: 'objects' }, value: expect.any(Number) }],
      log: [
        ['warn', 'The data disk has 1 MiB free, under 64 MiB: not ready until space is freed', null],
        ['warn', 'The data disk is full or read-only; uploads answer 503 until a file can be written again', 'ENOSPC'],
        ['info', 'The data disk takes files again', null],
      ],
    });
    // The 1 MiB tmpfs, nearly full: what the alert WhistleDiskLowOnSpace reads.
    const [{ value }] = outcome.freeMetric as { value: number }[];
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThan(1024 * 1024);
  });
});
