import { Router } from 'express';
import { mailerPort } from '@whistle/mailer';
import { objectStorePort } from '@whistle/object-store';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  housekeepingWords,
  rateLimitCountersFor,
  rateLimitMigrations,
  serviceDatabase,
  type ServiceDependencies,
  type WhistleService,
  type ServiceSchema,
} from '@whistle/service-kit';
import { createStaffTokenVerifier } from '@whistle/tokens';
import { authConfigSchema, type AuthConfig } from './config';
import { AUTH_SCHEMA, authMigrations } from './data-access/migrations';
import type { AccountDependencies } from './domain/account/account-dependencies';
import { removeExpired } from './domain/account/remove-expired.use-case';
import { isSessionRevoked } from './domain/account/session.use-case';
import { tokenRevocations } from './domain/account/token-revocations';
import { announcingPublicViewChanges } from './domain/company/public-view-announcements';
import { PublicCompanyCache } from './domain/company/public-company-cache';
import { KeyEncryptionKey } from './domain/secrets/key-encryption';
import { signingKeyFrom, TokenIssuer } from './domain/tokens/token-issuer';
import { accountRoutes } from './entry-points/http/account.routes';
import { commonPasswordRoutes } from './entry-points/http/common-password.routes';
import { companyRoutes } from './entry-points/http/company.routes';
import { customizationRoutes } from './entry-points/http/customization.routes';
import { replyTemplateRoutes } from './entry-points/http/reply-template.routes';
import { settingsRoutes } from './entry-points/http/settings.routes';
import { ssoRoutes } from './entry-points/http/sso.routes';
import { keysRoutes } from './entry-points/http/keys.routes';
import { incidentEventsSubscription } from './entry-points/messaging/incident-events.subscription';

const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

// objects: the landing pages' logos (disk standalone, S3 in a cluster), as the file service keeps files.
const authPorts = { db: databasePort, bus: eventBusPort, mailer: mailerPort, objects: objectStorePort };
export type AuthDependencies = ServiceDependencies<typeof authPorts>;

/** Its schema and migrations: applied at start, and by `npm run migrate -- status|up` (src/migrate.ts). */
export const authSchema: ServiceSchema = {
  name: 'auth',
  schema: AUTH_SCHEMA,
  migrations: [rateLimitMigrations(AUTH_SCHEMA), tokenRevocations.migrations, authMigrations],
};

/** Companies, staff accounts and reporting labels: everything under /api/account/ except the audit log. */
export function createAuthService(given: AuthDependencies, config: AuthConfig): WhistleService {
  // Its tenant scopes run as the auth schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, AUTH_SCHEMA) };
  const lifecycle = createServiceLifecycle({
    ...authSchema,
    deps,
    subscriptions: [incidentEventsSubscription],
  });
  const logger = deps.logger.child({ service: 'auth' });
  // Every write that changes what disclosers see of a company announces it to all replicas' caches.
  const publicCompanies = new PublicCompanyCache(deps.db, logger);
  const unitOfWork = announcingPublicViewChanges(lifecycle.unitOfWork, publicCompanies);
  const kek = KeyEncryptionKey.fromBase64(config.KEY_ENCRYPTION_KEY);
  const issuer = new TokenIssuer(signingKeyFrom(config.TOKEN_SIGNING_KEY));
  // Every replica holds the key-encryption key: the counters' keys are HMAC-ed with a key derived from it.
  const rateLimits = rateLimitCountersFor({ db: deps.db, schema: AUTH_SCHEMA, secret: config.KEY_ENCRYPTION_KEY });
  const account: AccountDependencies = {
    db: deps.db,
    unitOfWork,
    kek,
    issuer,
    mailer: deps.mailer,
    logger,
    publicUrl: config.PUBLIC_URL,
    rateLimits,
    legacyPasswordSignInUntil: config.LEGACY_PASSWORD_SIGN_IN_UNTIL,
  };
  // Auth reads revocations from its own tables, so a logout counts here at once.
  const verifier = createStaffTokenVerifier({
    publicKey: issuer.publicKey,
    isRevoked: (principal) => isSessionRevoked(account, principal),
  });

  const router = Router();
  // Before the company routes: their `/api/account/company/:url_identifier` would otherwise take `profile`, `sso`...
  router.use(accountRoutes(account, verifier));
  router.use(keysRoutes({ db: deps.db, unitOfWork, kek }, verifier));
  router.use(commonPasswordRoutes());
  router.use(ssoRoutes(account, verifier));
  router.use(settingsRoutes({ db: deps.db, unitOfWork }, verifier));
  router.use(replyTemplateRoutes({ db: deps.db }, verifier));
  router.use(
    customizationRoutes({ db: deps.db, unitOfWork, objects: deps.objects, logger, publicCompanies }, verifier),
  );
  router.use(
    companyRoutes({
      db: deps.db,
      unitOfWork,
      publicCompanies,
      onboarding: {
        mode: config.ONBOARDING_MODE,
        allowedDomains: config.ONBOARDING_ALLOWED_EMAIL_DOMAINS,
        blockedDomains: config.ONBOARDING_BLOCKED_EMAIL_DOMAINS,
      },
      mailer: deps.mailer,
      logger,
      rateLimits,
      onboardingsPerAddress: config.ONBOARDING_LIMIT_PER_ADDRESS,
      publicUrl: config.PUBLIC_URL,
    }),
  );

  lifecycle.periodic({
    name: 'expired-secrets',
    run: () => removeExpired(deps.db),
    intervalMs: CLEANUP_INTERVAL_MS,
    words: housekeepingWords('Removing expired secrets'),
  });
  return {
    name: 'auth',
    router,
    async start() {
      await lifecycle.start();
      await publicCompanies.start();
    },
    async stop() {
      await publicCompanies.stop();
      await lifecycle.stop();
    },
  };
}

export const authServiceDefinition = defineService({
  name: 'auth',
  configSchema: authConfigSchema,
  ports: authPorts,
  create: createAuthService,
});
