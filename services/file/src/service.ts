import { Router } from 'express';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import {
  createDiscloserTokenVerifier,
  createServiceLifecycle,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import type { FileConfig } from './config';
import { FILE_SCHEMA, fileMigrations } from './data-access/migrations';
import { fileRoutes } from './entry-points/http/file.routes';

/**
 * Body types the file service reads itself (the streamed upload): the HTTP app serving it must
 * accept them (it reads `extraContentTypes` from the services it serves) rather than answer 415.
 */
export const FILE_SERVICE_CONTENT_TYPES = [FILE_UPLOAD_CONTENT_TYPE] as const;

/** Encrypted incident files: bytes in the object store, metadata in the `file` schema (/api/incident/file*). */
export function createFileService(deps: ServiceDependencies, config: FileConfig): WhistleService {
  const lifecycle = createServiceLifecycle({ name: 'file', schema: FILE_SCHEMA, migrations: fileMigrations, deps });
  const router = Router();
  router.use(
    fileRoutes({
      db: deps.db,
      objects: deps.objects,
      outbox: lifecycle.outbox,
      verifier: createDiscloserTokenVerifier(config.DISCLOSER_TOKEN_PUBLIC_KEY),
      afterCommit: lifecycle.publishPending,
    }),
  );
  return {
    name: 'file',
    router,
    extraContentTypes: FILE_SERVICE_CONTENT_TYPES,
    start: lifecycle.start,
    stop: lifecycle.stop,
  };
}
