import type { Readable } from 'node:stream';

/**
 * The ObjectStore port. Two adapters: a folder on local disk and any S3 API (@aws-sdk/client-s3).
 * Content is streamed both ways: a 25 MB upload never sits whole in memory.
 */
export interface ObjectStore {
  readonly kind: 'disk' | 's3';
  /** Stores the stream under `key`; `size` is the exact byte count when known. */
  put(key: string, body: Readable | Buffer, options?: { size?: number; contentType?: string }): Promise<void>;
  /** Throws NotFoundError when the key does not exist. */
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Resolves while the store can take files; rejects with the reason otherwise (readiness). */
  ready(): Promise<void>;
  close(): Promise<void>;
}
