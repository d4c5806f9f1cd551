import { Router } from 'express';
import { createServiceLifecycle, type ServiceDependencies, type WhistleService } from '@whistle/service-kit';
import { AUDIT_SCHEMA, auditMigrations } from './data-access/migrations';
import { recordEvent } from './domain/record-event';

/**
 * Consumes every event of the platform into an append-only log. The staff read endpoint
 * (`GET /api/account/company/audit_log/`) arrives with staff sign-in, which it needs for tenancy.
 */
export function createAuditService(deps: ServiceDependencies): WhistleService {
  const lifecycle = createServiceLifecycle({
    name: 'audit',
    schema: AUDIT_SCHEMA,
    migrations: auditMigrations,
    deps,
    subscriptions: [{ consumer: 'audit', events: ['#'], handle: recordEvent }],
  });
  return { name: 'audit', router: Router(), start: lifecycle.start, stop: lifecycle.stop };
}
