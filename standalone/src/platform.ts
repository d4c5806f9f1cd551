import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { resolveWorkload } from '@whistle/contracts';
import {
  errorHandler, healthRouter, NotFoundError, notFoundHandler, readinessChecks, requestLogger,
  type ServiceDependencies, type WhistleService,
} from '@whistle/service-kit';
import { authConfigSchema, createAuthService } from '@whistle/auth-service';
import { createAuditService } from '@whistle/audit-service';
import { createFileService } from '@whistle/file-service';
import { createIncidentService } from '@whistle/incident-service';
import { createNotificationService, notificationConfigSchema } from '@whistle/notification-service';
import type { StandaloneConfig } from './config';
import { frontendRouter } from './frontends';

export interface Platform {
  readonly app: Express;
  readonly services: readonly WhistleService[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Strict policy for pages a discloser opens: nothing from third parties, no inline code, no referrer. */
const contentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * The whole platform in one Express app: every service's router, chosen per request by the routing
 * table exactly as the Ingress chooses a Service in a cluster, and the built frontends.
 */
export function createPlatform(config: StandaloneConfig & { KEY_ENCRYPTION_KEY: string }, deps: ServiceDependencies, rootDir: string): Platform {
  const services: WhistleService[] = [
    createAuthService(deps, authConfigSchema.parse({ ...config, PORT: undefined })),
    createIncidentService(deps),
    createFileService(deps),
    createNotificationService(deps, notificationConfigSchema.parse({ ...config, PORT: undefined })),
    createAuditService(deps),
  ];
  const byName = new Map(services.map((service) => [service.name, service]));

  const app = express();
  app.disable('x-powered-by');
  if (config.TRUST_PROXY !== undefined) app.set('trust proxy', config.TRUST_PROXY);
  app.use(helmet({ contentSecurityPolicy, referrerPolicy: { policy: 'no-referrer' }, crossOriginEmbedderPolicy: false }));
  app.use(requestLogger(deps.logger));
  app.use(healthRouter(deps.logger, readinessChecks({ database: () => deps.db.query('select 1') })));
  app.use(express.json({ limit: config.BODY_LIMIT }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    const service = byName.get(resolveWorkload(req.path) ?? '');
    if (!service) return next();
    // The service owns its prefix: what it does not answer is a JSON 404, never the SPA page.
    service.router(req, res, (error?: unknown) => next(error ?? new NotFoundError()));
  });
  app.use(frontendRouter(rootDir));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));

  return {
    app,
    services,
    async start() {
      for (const service of services) await service.start();
    },
    async stop() {
      for (const service of [...services].reverse()) await service.stop();
    },
  };
}
