export {
  createIncidentService,
  incidentServiceDefinition,
  type IncidentDependencies,
  type IncidentService,
} from './service';
export { incidentConfigSchema, type IncidentConfig } from './config';
export { INCIDENT_SCHEMA, incidentMigrations } from './data-access/migrations';
