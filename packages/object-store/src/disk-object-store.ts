import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { NotFoundError, NotReadyError, readDiskFree, type Logger } from '@whistle/service-kit';
import { exactSize } from './exact-size';
import { assertValidObjectKey } from './object-key';
import type { ObjectStore } from './object-store';
import { DISK_FULL_MESSAGE, isDiskUnavailable, OutageTracker } from './store-unavailable';

/**
 * Below this much free space the store reports itself not ready: room for two of the largest uploads and
 * for the database beside it (DATA_DIR) to grow a little, so an operator is warned before writes fail.
 */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Objects as files under `root` (standalone mode). A put streams into a temporary file in
 * `root/.tmp`, flushes it to disk and renames it into place, so readers see either the old
 * object or the complete new one, never a partial file. A full disk (ENOSPC, EDQUOT) or a read-only
 * one (EROFS) fails the put with a 503, logged once until a write succeeds again.
 */
export class DiskObjectStore implements ObjectStore {
  readonly kind = 'disk' as const;
  private readonly root: string;
  private readonly tmpDir: string;
  private readonly outages: OutageTracker;
  private lowOnSpace = false;
  private readonly stopMetric: () => void;

  constructor(
    root: string,
    private readonly logger?: Logger,
  ) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, '.tmp');
    this.outages = new OutageTracker(
      {
        down: 'The data disk is full or read-only; uploads answer 503 until a file can be written again',
        up: 'The data disk takes files again',
      },
      isDiskUnavailable,
      logger,
      { answer: DISK_FULL_MESSAGE },
    );
    this.stopMetric = readDiskFree(async () => [{ labels: { store: 'objects' }, value: await this.freeBytes() }]);
  }

  /** What an unprivileged process may use (bavail), not what root could. */
  private async freeBytes(): Promise<number> {
    const disk = await statfs(this.root);
    return disk.bavail * disk.bsize;
  }

  /**
   * Empties the temporary folder: what is there was being written when the process died (kill -9, power
   * loss) and will never be renamed into place. Only at start, while no put of this process runs; the
   * store's folder belongs to one process (the standalone).
   */
  async removeLeftovers(): Promise<number> {
    const leftovers = await readdir(this.tmpDir).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    });
    await Promise.all(leftovers.map((name) => rm(path.join(this.tmpDir, name), { recursive: true, force: true })));
    return leftovers.length;
  }

  private pathOf(key: string): string {
    assertValidObjectKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable | Buffer, options: { size?: number } = {}): Promise<void> {
    const target = this.pathOf(key);
    await this.outages.run(() => this.write(target, body, options));
  }

  private async write(target: string, body: Readable | Buffer, options: { size?: number }): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = path.join(this.tmpDir, randomUUID());
    const file = await open(temporary, 'wx', 0o600);
    try {
      // Chunk by chunk with backpressure; the handle stays ours so it can be flushed before the rename.
      await writeFile(file, options.size === undefined || Buffer.isBuffer(body) ? body : exactSize(body, options.size));
      await file.sync();
      await file.close();
      await rename(temporary, target);
    } catch (error) {
      await file.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const file = await open(this.pathOf(key), 'r').catch((error: unknown) => {
      throw isMissing(error) ? new NotFoundError() : error;
    });
    if (!(await file.stat()).isFile()) {
      await file.close();
      throw new NotFoundError();
    }
    return file.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Rejects, naming the free space, when the disk under the store has less than MIN_FREE_BYTES left. */
  async ready(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const free = await this.freeBytes();
    if (free < MIN_FREE_BYTES) {
      const reason = `The data disk has ${Math.floor(free / (1024 * 1024))} MiB free, under ${MIN_FREE_BYTES / (1024 * 1024)} MiB`;
      if (!this.lowOnSpace) this.logger?.warn({ freeBytes: free }, `${reason}: not ready until space is freed`);
      this.lowOnSpace = true;
      throw new NotReadyError(reason);
    }
    if (this.lowOnSpace) this.logger?.info({ freeBytes: free }, 'The data disk has room again');
    this.lowOnSpace = false;
  }

  async close(): Promise<void> {
    this.stopMetric();
  }
}
