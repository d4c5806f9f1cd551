import { Router } from 'express';
import { createServiceLifecycle, type ServiceDependencies, type WhistleService } from '@whistle/service-kit';
import { INCIDENT_SCHEMA, incidentMigrations } from './data-access/migrations';
import { onCompanyCreated } from './domain/company-read-model';

/** Incidents, messages, export and deadlines (/api/incident/*). Reporting endpoints arrive with the discloser journey. */
export function createIncidentService(deps: ServiceDependencies): WhistleService {
  const lifecycle = createServiceLifecycle({
    name: 'incident',
    schema: INCIDENT_SCHEMA,
    migrations: incidentMigrations,
    deps,
    subscriptions: [{ consumer: 'incident', events: ['company.created'], handle: onCompanyCreated }],
  });
  return { name: 'incident', router: Router(), start: lifecycle.start, stop: lifecycle.stop };
}
