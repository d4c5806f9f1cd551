import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Environment } from './config/load-config';
import { noErrorReporter, startErrorReporting, type ErrorReporter } from './error-reporting/error-reporter';
import { errorReportTunnel } from './error-reporting/tunnel';
import { ConfigError } from './errors/errors';
import { NotReadyError, readinessChecks } from './http/health';
import { createHttpApp } from './http/http-app';
import { trackRequests } from './http/request-tracker';
import { applyServerTimeouts } from './http/stalled-body';
import { createLogger, logLevels, type Logger } from './logging/logger';
import { startMetricsServer, type MetricsServer } from './metrics/metrics-server';
import { adapterKinds, closePorts, openPorts, portReadiness } from './ports/open-ports';
import { noTracing, startTracing, type Tracing } from './tracing/start-tracing';
import type { PortSet, ServiceDependencies } from './ports/port';
import type { ServiceConfigSchema, ServiceDefinition, WhistleService } from './service';

export interface RunServiceOptions<P extends PortSet, S extends ServiceConfigSchema> extends ServiceDefinition<P, S> {
  /** Where configuration is read; `process.env` by default. */
  env?: Environment;
  /** How the process ends; `process.exit` by default. */
  exit?: (code: number) => void;
  /** How long open requests may take to finish at shutdown before their connections are cut. */
  shutdownGraceMs?: number;
}

export interface RunningService {
  /** The port actually listened on (PORT=0 picks a free one). */
  readonly port: number;
  /** The port of `/metrics`, when METRICS_PORT is set. */
  readonly metricsPort?: number;
  /** What SIGTERM/SIGINT do: stop accepting, drain, stop the service, close dependencies, exit. */
  shutdown(signal: string): Promise<void>;
}

const signals = ['SIGTERM', 'SIGINT'] as const;

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * A service's `main` in cluster mode: loads configuration (exit 1 naming every bad variable), opens
 * the ports the service declares (and no other), starts the service and serves it on PORT. On SIGTERM
 * or SIGINT it stops accepting connections, reports not-ready, lets open requests finish (cutting them
 * after the grace period), stops the service, closes its adapters and exits 0. Failures exit 1.
 */
export async function runService<P extends PortSet, S extends ServiceConfigSchema>(
  options: RunServiceOptions<P, S>,
): Promise<RunningService | undefined> {
  const {
    name,
    configSchema,
    ports,
    create,
    env = process.env,
    exit = (code) => process.exit(code),
    shutdownGraceMs = 10_000,
  } = options;
  // Until the configuration is read, honour a valid LOG_LEVEL so a silenced run stays silent.
  const initialLevel = logLevels.find((level) => level === env.LOG_LEVEL) ?? 'info';
  let logger: Logger = createLogger({ name, level: initialLevel });
  let deps: ServiceDependencies<P> | undefined;
  let started: WhistleService | undefined;
  let metrics: MetricsServer | undefined;
  let tracing: Tracing = noTracing;
  let reporter: ErrorReporter = noErrorReporter;
  try {
    // Alone (cluster mode) a service cannot guess the public origin its links must point to.
    if (!env.PUBLIC_URL)
      throw new ConfigError('PUBLIC_URL is required: the public origin of the platform, base of links in e-mails');
    const config = loadConfig(configSchema, env);
    logger = createLogger({ name, level: config.LOG_LEVEL });
    // Before the ports open, so their first queries are traced too; off unless the OTEL_* variables ask.
    tracing = await startTracing(name, env);
    reporter = await startErrorReporting(config, name);
    const opened = await openPorts(ports, config, logger);
    deps = opened;
    const service = create(opened, config);
    await service.start();
    started = service;

    let draining = false;
    const app = createHttpApp({
      logger,
      services: [service],
      bodyLimit: config.BODY_LIMIT,
      trustProxy: config.TRUST_PROXY,
      strictTransportSecurity: config.PUBLIC_URL.startsWith('https:'),
      errorReporter: reporter,
      errorReportTunnel: config.SENTRY_BROWSER_DSN
        ? errorReportTunnel({ dsn: config.SENTRY_BROWSER_DSN, logger })
        : undefined,
      readiness: readinessChecks({
        ...portReadiness(ports, opened),
        accepting: async () => {
          if (draining) throw new NotReadyError('shutting down');
        },
      }),
    });
    const server: Server = createServer(app);
    applyServerTimeouts(server);
    // Shutdown waits for every handler to be done, including those whose client already left.
    const requests = trackRequests(server);
    const port = await listen(server, config.PORT);
    if (config.METRICS_PORT !== undefined) metrics = await startMetricsServer(config.METRICS_PORT);
    logger.info(
      { port, metricsPort: metrics?.port, traces: tracing.enabled, ...adapterKinds(ports, opened) },
      'service listening',
    );

    let stopping: Promise<void> | undefined;
    const onSignal = (signal: NodeJS.Signals) => void shutdown(signal);
    const shutdown = (signal: string): Promise<void> => {
      stopping ??= (async () => {
        // From now on a second Ctrl-C gets Node's default: immediate exit.
        for (const each of signals) process.off(each, onSignal);
        logger.info({ signal }, 'shutting down');
        draining = true;
        try {
          // The ports close only once every handler has answered (or the grace period is over).
          const handled = await requests.close(shutdownGraceMs);
          if (!handled) logger.warn({ inFlight: requests.inFlight }, 'requests still running after the grace period');
          await service.stop();
          await closePorts(ports, opened);
          await metrics?.close();
          // The last spans (the shutdown's own queries and events) are exported before the process exits.
          await tracing.shutdown();
          await reporter.flush();
          logger.info('stopped');
          exit(0);
        } catch (error) {
          logger.error({ err: error }, 'shutdown failed');
          exit(1);
        }
      })();
      return stopping;
    };
    for (const signal of signals) process.on(signal, onSignal);
    return { port, metricsPort: metrics?.port, shutdown };
  } catch (error) {
    // A configuration problem is the operator's to fix: its message says what, a stack adds nothing.
    if (error instanceof ConfigError) logger.error(error.message);
    else logger.error({ err: error }, 'service failed to start');
    await started?.stop().catch(() => undefined);
    if (deps) await closePorts(ports, deps).catch(() => undefined);
    await metrics?.close().catch(() => undefined);
    await tracing.shutdown().catch(() => undefined);
    exit(1);
    return undefined;
  }
}
