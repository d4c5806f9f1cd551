import { Router } from 'express';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  serviceDatabase,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import { createStaffTokenVerifier } from '@whistle/tokens';
import { auditConfigSchema, type AuditConfig } from './config';
import { AUDIT_SCHEMA, auditMigrations } from './data-access/migrations';
import { revokedTokenRepository } from './data-access/revoked-token.repository';
import { auditLogRoutes } from './entry-points/http/audit-log.routes';
import { auditLogSubscription } from './entry-points/messaging/audit-log.subscription';

const auditPorts = { db: databasePort, bus: eventBusPort };
export type AuditDependencies = ServiceDependencies<typeof auditPorts>;

const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Consumes every event of the platform into each company's append-only, hash-chained trail, and serves it
 * to the company's admins (`/api/account/company/audit_log/`: read, verify, export).
 */
export function createAuditService(given: AuditDependencies, config: AuditConfig): WhistleService {
  // Its tenant scopes run as the audit schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, AUDIT_SCHEMA) };
  const lifecycle = createServiceLifecycle({
    name: 'audit',
    schema: AUDIT_SCHEMA,
    migrations: auditMigrations,
    deps,
    subscriptions: [auditLogSubscription],
  });
  const logger = deps.logger.child({ service: 'audit' });
  // Revocations are the audit service's own rows (from token.revoked and user.deleted): every replica,
  // and a restarted one, refuses a logged-out or removed user's token.
  const verifier = createStaffTokenVerifier({
    publicKey: config.TOKEN_PUBLIC_KEY,
    isRevoked: (principal) =>
      revokedTokenRepository.isRevoked(deps.db, {
        jti: principal.tokenId,
        userId: principal.userId,
        issuedAt: principal.issuedAt,
      }),
  });
  const router = Router();
  router.use(auditLogRoutes({ db: deps.db }, verifier));

  let cleanup: NodeJS.Timeout | undefined;
  const removeExpired = () =>
    revokedTokenRepository
      .removeExpired(deps.db)
      .catch((err: unknown) => logger.warn({ err }, 'expired revocations not removed'));
  return {
    name: 'audit',
    router,
    async start() {
      await lifecycle.start();
      cleanup = setInterval(removeExpired, CLEANUP_INTERVAL_MS).unref();
    },
    async stop() {
      clearInterval(cleanup);
      await lifecycle.stop();
    },
  };
}

export const auditServiceDefinition = defineService({
  name: 'audit',
  configSchema: auditConfigSchema,
  ports: auditPorts,
  create: createAuditService,
});
