import { Router } from 'express';
import { createServiceLifecycle, type ServiceDependencies, type WhistleService } from '@whistle/service-kit';

export const FILE_SCHEMA = 'file';

/**
 * Encrypted incident files: bytes in the object store, metadata in the `file` schema. The upload and
 * download endpoints arrive with the discloser journey; until then the service owns its schema and
 * its connection to the object store.
 */
export function createFileService(deps: ServiceDependencies): WhistleService {
  const lifecycle = createServiceLifecycle({ name: 'file', schema: FILE_SCHEMA, migrations: [], deps });
  return { name: 'file', router: Router(), start: lifecycle.start, stop: lifecycle.stop };
}
