import express, { Router, type Express } from 'express';
import { companyPublicViewSchema, resolveWorkload, workloads, type WorkloadName } from '@whistle/contracts';
import {
  createHttpApp,
  dependenciesFor,
  errorHandler,
  errorReportTunnel,
  noErrorReporter,
  loadConfig,
  notFoundHandler,
  portReadiness,
  readinessChecks,
  unionOfPorts,
  type Environment,
  type ErrorReporter,
  type OpenedAdapters,
  type PortSet,
  type ServiceDefinition,
  type WhistleService,
} from '@whistle/service-kit';
import { authServiceDefinition } from '@whistle/auth-service';
import { auditServiceDefinition } from '@whistle/audit-service';
import { fileServiceDefinition } from '@whistle/file-service';
import { incidentServiceDefinition } from '@whistle/incident-service';
import { notificationServiceDefinition } from '@whistle/notification-service';
import type { StandaloneConfig } from './config';
import { frontendDist, frontendRouter } from './frontends';
import { pageTemplate } from './page';
import { pageHeaders } from './page-headers';

/** Every service of the platform, in the order they start. */
export const platformServices: readonly ServiceDefinition[] = [
  authServiceDefinition,
  incidentServiceDefinition,
  fileServiceDefinition,
  notificationServiceDefinition,
  auditServiceDefinition,
];

/** Each port a service declares, once: the platform opens these and gives each service its share. */
export const platformPorts: PortSet = unionOfPorts(platformServices.map((service) => service.ports));

/** The adapters of `platformPorts`, opened once for every service. */
export type PlatformDependencies = OpenedAdapters;

export interface Platform {
  readonly app: Express;
  readonly services: readonly WhistleService[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

const isService = (workload: WorkloadName | undefined) =>
  workload !== undefined && workloads[workload].kind === 'service';

/**
 * The whole platform in one Express app. A request whose path the routing table gives to a service
 * goes to that service's router inside the API app (the same one each service serves alone in a
 * cluster); every other path is a frontend file or the shell's page.
 */
export function createPlatform({
  config,
  env,
  deps,
  rootDir,
  errorReporter = noErrorReporter,
}: {
  config: StandaloneConfig;
  /** The process environment with the platform secrets: each service reads its own keys from it, as alone. */
  env: Environment;
  /** The adapters of `platformPorts`. */
  deps: PlatformDependencies;
  rootDir: string;
  /** Where faults of every service go (`startErrorReporting`: one SDK client for the process). */
  errorReporter?: ErrorReporter;
}): Platform {
  // The platform's port is not a service's: each service would otherwise take its own default.
  const serviceEnv = { ...env, PORT: undefined };
  const services: WhistleService[] = platformServices.map((service) =>
    service.create(dependenciesFor(service.ports, deps), loadConfig(service.configSchema, serviceEnv)),
  );
  const byName = new Map(services.map((service) => [service.name, service]));
  // HSTS only where browsers heed it: when the platform is reached over HTTPS (a TLS proxy in front).
  const overHttps = config.PUBLIC_URL.startsWith('https:');

  const dispatcher = Router();
  dispatcher.use((req, res, next) => {
    const service = byName.get(resolveWorkload(req.path) ?? '');
    if (service) service.router(req, res, next);
    else next();
  });
  const api = createHttpApp({
    logger: deps.logger,
    services: [
      { router: dispatcher, extraContentTypes: services.flatMap((service) => service.extraContentTypes ?? []) },
    ],
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    strictTransportSecurity: overHttps,
    readiness: readinessChecks(portReadiness(platformPorts, deps)),
    errorReporter,
    // The routing table gives /api/error-reports to auth, the API edge: here it is the API app's.
    errorReportTunnel: config.SENTRY_BROWSER_DSN
      ? errorReportTunnel({ dsn: config.SENTRY_BROWSER_DSN, logger: deps.logger })
      : undefined,
  });

  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    if (isService(resolveWorkload(req.path)) || req.path === '/healthz' || req.path === '/readyz') api(req, res, next);
    else next();
  });
  // Read once: the pages' inlined stylesheets are what their CSP allows by hash.
  const pages = pageTemplate(frontendDist(rootDir, 'shell'), frontendDist(rootDir, 'mfe-disclose'));
  app.use(pageHeaders(overHttps, pages.styleHashes));
  app.use(
    frontendRouter(rootDir, {
      template: pages,
      // The landing page drawn into the HTML from the public view, asked of this process's own API so it comes
      // from auth's cache (kept current by change notifications) with what anyone may see of the company.
      companyView: async (urlIdentifier, req) => {
        const url = `http://127.0.0.1:${req.socket.localPort}/api/account/company/${encodeURIComponent(urlIdentifier)}`;
        const response = await fetch(url, { headers: { accept: 'application/json' } });
        return response.ok ? companyPublicViewSchema.parse(await response.json()) : undefined;
      },
      errorReporting: config.SENTRY_BROWSER_DSN
        ? {
            dsn: config.SENTRY_BROWSER_DSN,
            tracesSampleRate: config.SENTRY_TRACES_SAMPLE_RATE,
            environment: config.SENTRY_ENVIRONMENT,
            release: config.SENTRY_RELEASE,
          }
        : undefined,
    }),
  );
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger, errorReporter));

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
