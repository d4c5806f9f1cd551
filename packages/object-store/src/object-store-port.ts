import type { Port } from '@whistle/service-kit';
import type { ObjectStore } from './object-store';
import { openObjectStore } from './open-object-store';

/**
 * S3 when S3_BUCKET is set, else files under DATA_DIR/objects. Ready while the store answers and, on disk,
 * while its disk has room for uploads.
 */
export const objectStorePort: Port<ObjectStore> = {
  name: 'objects',
  open: (config, logger) => openObjectStore(config, logger),
  ready: (store) => store.ready(),
};
