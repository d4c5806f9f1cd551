import { Router } from 'express';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import { createDiscloserTokenVerifier } from '@whistle/tokens';
import { incidentConfigSchema, type IncidentConfig } from './config';
import { INCIDENT_SCHEMA, incidentMigrations } from './data-access/migrations';
import { createDiscloserTokenSigner } from './domain/tokens/discloser-token-signer';
import { incidentRoutes } from './entry-points/http/incident.routes';
import { readModelsSubscription } from './entry-points/messaging/read-models.subscription';

const incidentPorts = { db: databasePort, bus: eventBusPort };
export type IncidentDependencies = ServiceDependencies<typeof incidentPorts>;

/** Incidents, messages, export and deadlines (/api/incident/*, except files, which are the file service's). */
export function createIncidentService(deps: IncidentDependencies, config: IncidentConfig): WhistleService {
  const lifecycle = createServiceLifecycle({
    name: 'incident',
    schema: INCIDENT_SCHEMA,
    migrations: incidentMigrations,
    deps,
    subscriptions: [readModelsSubscription],
  });
  const signer = createDiscloserTokenSigner(config.DISCLOSER_TOKEN_PRIVATE_KEY);
  const router = Router();
  router.use(
    incidentRoutes({
      db: deps.db,
      unitOfWork: lifecycle.unitOfWork,
      signer,
      verifier: createDiscloserTokenVerifier(signer.publicKeyPem),
      limits: {
        reportPerClient: config.REPORT_LIMIT_PER_CLIENT,
        reportPerCompany: config.REPORT_LIMIT_PER_COMPANY,
        retrievalPerClient: config.RETRIEVAL_LIMIT_PER_CLIENT,
        retrievalFailuresPerCompany: config.RETRIEVAL_FAILURE_LIMIT_PER_COMPANY,
      },
    }),
  );
  return { name: 'incident', router, start: lifecycle.start, stop: lifecycle.stop };
}

export const incidentServiceDefinition = defineService({
  name: 'incident',
  configSchema: incidentConfigSchema,
  ports: incidentPorts,
  create: createIncidentService,
});
