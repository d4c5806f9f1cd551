import path from 'node:path';
import { ConfigError, type Logger, type PlatformConfig } from '@whistle/service-kit';
import { DiskObjectStore } from './disk-object-store';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object-store';

/**
 * S3 when S3_BUCKET is set, else DATA_DIR/objects. Without S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (the config
 * schema accepts both or neither), the AWS SDK's default credential chain signs the requests.
 */
export async function openObjectStore(
  config: Pick<
    PlatformConfig,
    'DATA_DIR' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'
  >,
  logger?: Logger,
): Promise<ObjectStore> {
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!bucket) {
    const store = new DiskObjectStore(path.join(config.DATA_DIR, 'objects'), logger);
    const removed = await store.removeLeftovers();
    if (removed > 0) logger?.info({ removed }, 'Removed partial files of uploads cut by the last stop');
    return store;
  }
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  const store = new S3ObjectStore({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket,
    accessKeyId,
    secretAccessKey,
    logger,
  });
  try {
    await store.ensureBucket();
  } catch (error) {
    await store.close();
    throw error;
  }
  // What the last run (or a replica killed meanwhile) could not abort.
  void store.sweepAbandonedUploads();
  return store;
}
