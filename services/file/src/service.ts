import { Router } from 'express';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import { objectStorePort } from '@whistle/object-store';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  housekeepingWords,
  processRateLimitCounters,
  rateLimitCountersFor,
  rateLimitMigrations,
  serviceDatabase,
  type ServiceDependencies,
  type WhistleService,
  type ServiceSchema,
} from '@whistle/service-kit';
import { createIncidentSessionVerifier } from '@whistle/tokens';
import { fileConfigSchema, type FileConfig } from './config';
import { FILE_SCHEMA, fileMigrations } from './data-access/migrations';
import { tokenRevocations } from './domain/token-revocations';
import { fileRoutes } from './entry-points/http/file.routes';
import { fileEventsSubscription } from './entry-points/messaging/file-events.subscription';

/**
 * Body types the file service reads itself (the streamed upload): the HTTP app serving it must
 * accept them (it reads `extraContentTypes` from the services it serves) rather than answer 415.
 */
export const FILE_SERVICE_CONTENT_TYPES = [FILE_UPLOAD_CONTENT_TYPE] as const;

const filePorts = { db: databasePort, bus: eventBusPort, objects: objectStorePort };
export type FileDependencies = ServiceDependencies<typeof filePorts>;

/** Its schema and migrations: applied at start, and by `npm run migrate -- status|up` (src/migrate.ts). */
export const fileSchema: ServiceSchema = {
  name: 'file',
  schema: FILE_SCHEMA,
  migrations: [rateLimitMigrations(FILE_SCHEMA), tokenRevocations.migrations, fileMigrations],
};

/** Encrypted incident files: bytes in the object store, metadata in the `file` schema (/api/incident/file*). */
export function createFileService(given: FileDependencies, config: FileConfig): WhistleService {
  // Its tenant scopes run as the file schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, FILE_SCHEMA) };
  const counterSecret = config.UPLOAD_LIMIT_KEY ?? config.S3_SECRET_ACCESS_KEY;
  const lifecycle = createServiceLifecycle({
    ...fileSchema,
    deps,
    subscriptions: [fileEventsSubscription({ objects: deps.objects })],
  });
  const router = Router();
  router.use(
    fileRoutes({
      db: deps.db,
      objects: deps.objects,
      unitOfWork: lifecycle.unitOfWork,
      verifier: createIncidentSessionVerifier(config.DISCLOSER_TOKEN_PUBLIC_KEY, {
        isStaffRevoked: (token) => tokenRevocations.isRevoked(deps.db, token),
      }),
      limits: {
        filesPerMessage: config.FILES_PER_MESSAGE_MAX,
        filesPerIncident: config.FILES_PER_INCIDENT_MAX,
        bytesPerIncident: config.BYTES_PER_INCIDENT_MAX,
        discloserUploadsPerIncidentPerHour: config.UPLOAD_LIMIT_PER_INCIDENT,
        messageWaitMs: config.UPLOAD_MESSAGE_WAIT_MS,
      },
      uploadsPerClientPerHour: config.UPLOAD_LIMIT_PER_CLIENT,
      // The counters' keys are HMAC-ed with a secret every replica shares and a database dump lacks: their own key,
      // else the object store's secret key. Without either they count in this process's memory.
      rateLimits: counterSecret
        ? rateLimitCountersFor({ db: deps.db, schema: FILE_SCHEMA, secret: counterSecret })
        : processRateLimitCounters(),
    }),
  );
  lifecycle.periodic({
    name: 'expired-revocations',
    run: () => tokenRevocations.removeExpired(deps.db),
    intervalMs: 60 * 60 * 1000,
    words: housekeepingWords('Removing expired revocations'),
  });
  return {
    name: 'file',
    router,
    extraContentTypes: FILE_SERVICE_CONTENT_TYPES,
    start: lifecycle.start,
    stop: lifecycle.stop,
  };
}

export const fileServiceDefinition = defineService({
  name: 'file',
  configSchema: fileConfigSchema,
  ports: filePorts,
  create: createFileService,
});
