export { createIncidentService, incidentServiceDefinition, type IncidentDependencies } from './service';
export { incidentConfigSchema, type IncidentConfig } from './config';
export { INCIDENT_SCHEMA, incidentMigrations } from './data-access/migrations';
