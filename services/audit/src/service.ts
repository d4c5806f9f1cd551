import { Router } from 'express';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import { auditConfigSchema } from './config';
import { AUDIT_SCHEMA, auditMigrations } from './data-access/migrations';
import { auditLogSubscription } from './entry-points/messaging/audit-log.subscription';

const auditPorts = { db: databasePort, bus: eventBusPort };
export type AuditDependencies = ServiceDependencies<typeof auditPorts>;

/**
 * Consumes every event of the platform into an append-only log. The staff read endpoint
 * (`GET /api/account/company/audit_log/`) arrives with staff sign-in, which it needs for tenancy.
 */
export function createAuditService(deps: AuditDependencies): WhistleService {
  const lifecycle = createServiceLifecycle({
    name: 'audit',
    schema: AUDIT_SCHEMA,
    migrations: auditMigrations,
    deps,
    subscriptions: [auditLogSubscription],
  });
  return { name: 'audit', router: Router(), start: lifecycle.start, stop: lifecycle.stop };
}

export const auditServiceDefinition = defineService({
  name: 'audit',
  configSchema: auditConfigSchema,
  ports: auditPorts,
  create: (deps) => createAuditService(deps),
});
