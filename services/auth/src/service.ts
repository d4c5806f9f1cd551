import { Router } from 'express';
import type { ServiceDependencies, WhistleService } from '@whistle/service-kit';
import { createServiceLifecycle } from '@whistle/service-kit';
import type { AuthConfig } from './config';
import { AUTH_SCHEMA, authMigrations } from './data-access/migrations';
import { KeyEncryptionKey } from './domain/secrets/key-encryption';
import { companyRoutes } from './entry-points/http/company.routes';

/** Companies, staff accounts and reporting labels: everything under /api/account/ except the audit log. */
export function createAuthService(deps: ServiceDependencies, config: AuthConfig): WhistleService {
  const lifecycle = createServiceLifecycle({ name: 'auth', schema: AUTH_SCHEMA, migrations: authMigrations, deps });
  const router = Router();
  router.use(
    companyRoutes({
      db: deps.db,
      outbox: lifecycle.outbox,
      kek: KeyEncryptionKey.fromBase64(config.KEY_ENCRYPTION_KEY),
      blockedEmailDomains: config.ONBOARDING_BLOCKED_EMAIL_DOMAINS,
      publicUrl: config.PUBLIC_URL,
      afterCommit: lifecycle.publishPending,
    }),
  );
  return { name: 'auth', router, start: lifecycle.start, stop: lifecycle.stop };
}
