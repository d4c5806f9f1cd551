// The public API of @whistle/object-store: the ObjectStore port, its disk and S3 adapters, and the port a service declares.

export type { ObjectStore } from './object-store';
export { DiskObjectStore } from './disk-object-store';
export { ABANDONED_UPLOAD_AGE_MS, S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store';
export { openObjectStore } from './open-object-store';
export { objectStorePort } from './object-store-port';
export { assertValidObjectKey } from './object-key';
