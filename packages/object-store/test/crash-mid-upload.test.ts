import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRecordingLogger, waitFor } from '@whistle/service-kit/testing';
import { openObjectStore } from '../src/open-object-store';

/** The size of the partial file the child is writing in `.tmp`, 0 while there is none. */
async function partialBytes(tmpDir: string): Promise<number> {
  const names = await readdir(tmpDir).catch(() => []);
  const sizes = await Promise.all(names.map(async (name) => (await stat(path.join(tmpDir, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

describe('a crash during an upload to the disk store (issue 30, item 4)', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'objects-crash-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('when the process is killed (SIGKILL) while a put streams, then the next start empties .tmp and no object is visible', async () => {
    const root = path.join(dataDir, 'objects');
    const tmpDir = path.join(root, '.tmp');
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '-r',
        path.join(__dirname, '../../../tools/register-ts.js'),
        path.join(__dirname, 'fixtures/endless-upload.ts'),
        root,
      ],
      { stdio: 'ignore' },
    );
    try {
      await waitFor(async () => ((await partialBytes(tmpDir)) > 4 * 1024 * 1024 ? true : undefined), {
        what: 'a partial upload of 4 MB in .tmp',
        timeoutMs: 60_000,
      });
    } finally {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
    expect(await partialBytes(tmpDir)).toBeGreaterThan(0);

    const logger = createRecordingLogger();
    const store = await openObjectStore({ DATA_DIR: dataDir, S3_REGION: 'us-east-1' }, logger);
    expect(await readdir(tmpDir)).toEqual([]);
    await expect(store.exists('company/c1/file/cut-short')).resolves.toBe(false);
    expect(logger.entries.map((entry) => [entry.message, entry.fields.removed])).toEqual([
      ['Removed partial files of uploads cut by the last stop', 1],
    ]);
    // The store works as before: the client's retry is stored whole.
    await store.put('company/c1/file/cut-short', Buffer.from('retried'));
    await expect(store.exists('company/c1/file/cut-short')).resolves.toBe(true);
  });
});
