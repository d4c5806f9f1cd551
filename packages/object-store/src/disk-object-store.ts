import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { NotFoundError } from '@whistle/service-kit';
import { exactSize } from './exact-size';
import { assertValidObjectKey } from './object-key';
import type { ObjectStore } from './object-store';

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Objects as files under `root` (standalone mode). A put streams into a temporary file in
 * `root/.tmp`, flushes it to disk and renames it into place, so readers see either the old
 * object or the complete new one, never a partial file.
 */
export class DiskObjectStore implements ObjectStore {
  readonly kind = 'disk' as const;
  private readonly root: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, '.tmp');
  }

  private pathOf(key: string): string {
    assertValidObjectKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable | Buffer, options: { size?: number } = {}): Promise<void> {
    const target = this.pathOf(key);
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

  async close(): Promise<void> {}
}
