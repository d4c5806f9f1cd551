import { Router } from 'express';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  housekeepingWords,
  serviceDatabase,
  type ServiceDependencies,
  type WhistleService,
  type ServiceSchema,
} from '@whistle/service-kit';
import { createStaffTokenVerifier } from '@whistle/tokens';
import { auditConfigSchema, type AuditConfig } from './config';
import { AUDIT_SCHEMA, auditMigrations } from './data-access/migrations';
import { tokenRevocations } from './domain/token-revocations';
import { auditLogRoutes } from './entry-points/http/audit-log.routes';
import { auditLogSubscription } from './entry-points/messaging/audit-log.subscription';

const auditPorts = { db: databasePort, bus: eventBusPort };
export type AuditDependencies = ServiceDependencies<typeof auditPorts>;

const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/** Its schema and migrations: applied at start, and by `npm run migrate -- status|up` (src/migrate.ts). */
export const auditSchema: ServiceSchema = {
  name: 'audit',
  schema: AUDIT_SCHEMA,
  migrations: [tokenRevocations.migrations, auditMigrations],
};

/**
 * Consumes every event of the platform into each company's append-only, hash-chained trail, and serves it
 * to the company's admins (`/api/account/company/audit_log/`: read, verify, export).
 */
export function createAuditService(given: AuditDependencies, config: AuditConfig): WhistleService {
  // Its tenant scopes run as the audit schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, AUDIT_SCHEMA) };
  const lifecycle = createServiceLifecycle({
    ...auditSchema,
    deps,
    subscriptions: [auditLogSubscription],
  });
  // Revocations are the audit service's own rows (from auth's events): every replica, and a restarted one,
  // refuses a logged-out or removed user's token, and those issued before a new password or new roles.
  const verifier = createStaffTokenVerifier({
    publicKey: config.TOKEN_PUBLIC_KEY,
    isRevoked: (principal) => tokenRevocations.isRevoked(deps.db, principal),
  });
  lifecycle.periodic({
    name: 'expired-revocations',
    run: () => tokenRevocations.removeExpired(deps.db),
    intervalMs: CLEANUP_INTERVAL_MS,
    words: housekeepingWords('Removing expired revocations'),
  });
  const router = Router();
  router.use(auditLogRoutes({ db: deps.db }, verifier));

  return {
    name: 'audit',
    router,
    start: lifecycle.start,
    stop: lifecycle.stop,
  };
}

export const auditServiceDefinition = defineService({
  name: 'audit',
  configSchema: auditConfigSchema,
  ports: auditPorts,
  create: createAuditService,
});
