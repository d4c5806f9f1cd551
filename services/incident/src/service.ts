import { Router } from 'express';
import type { EventEnvelope } from '@whistle/contracts';
import {
  createDiscloserTokenSigner,
  createDiscloserTokenVerifier,
  createServiceLifecycle,
  type Queryable,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import type { IncidentConfig } from './config';
import { INCIDENT_SCHEMA, incidentMigrations } from './data-access/migrations';
import { onCompanyCreated } from './domain/company-read-model';
import { onIncidentFileCreated } from './domain/files/file-read-model';
import { incidentRoutes } from './entry-points/http/incident.routes';

const readModelHandlers: Record<string, (tx: Queryable, event: EventEnvelope) => Promise<void>> = {
  'company.created': onCompanyCreated,
  'incident.file.created': onIncidentFileCreated,
};

/** Incidents, messages, export and deadlines (/api/incident/*, except files, which are the file service's). */
export function createIncidentService(deps: ServiceDependencies, config: IncidentConfig): WhistleService {
  const lifecycle = createServiceLifecycle({
    name: 'incident',
    schema: INCIDENT_SCHEMA,
    migrations: incidentMigrations,
    deps,
    // One consumer (one queue) for every read model, so each event reaches its handler exactly once.
    subscriptions: [
      {
        consumer: 'incident',
        events: Object.keys(readModelHandlers),
        handle: (tx, event) => readModelHandlers[event.name](tx, event),
      },
    ],
  });
  const signer = createDiscloserTokenSigner(config.DISCLOSER_TOKEN_PRIVATE_KEY);
  const router = Router();
  router.use(
    incidentRoutes({
      db: deps.db,
      outbox: lifecycle.outbox,
      signer,
      verifier: createDiscloserTokenVerifier(signer.publicKeyPem),
      limits: {
        reportPerClient: config.REPORT_LIMIT_PER_CLIENT,
        reportPerCompany: config.REPORT_LIMIT_PER_COMPANY,
        retrievalPerClient: config.RETRIEVAL_LIMIT_PER_CLIENT,
        retrievalFailuresPerCompany: config.RETRIEVAL_FAILURE_LIMIT_PER_COMPANY,
      },
      afterCommit: lifecycle.publishPending,
    }),
  );
  return { name: 'incident', router, start: lifecycle.start, stop: lifecycle.stop };
}
