import path from 'node:path';
import type { Server } from 'node:http';
import {
  adapterKinds,
  applyServerTimeouts,
  closePorts,
  createLogger,
  loadConfig,
  openPorts,
  startErrorReporting,
  startMetricsServer,
  startTracing,
  trackRequests,
  type Environment,
  type Logger,
  type MetricsServer,
} from '@whistle/service-kit';
import { standaloneConfigSchema } from './config';
import { loadOrCreateSecrets } from './secrets';
import { createPlatform, platformPorts } from './platform';

/** Grace period for open requests at shutdown before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface StandaloneServer {
  readonly port: number;
  /** The port of `/metrics`, when METRICS_PORT is set. */
  readonly metricsPort?: number;
  /**
   * Stops accepting, lets every handler under way finish (also those whose client left: they may still be
   * using the database), cuts what is left after the grace period, then stops the services and closes the
   * ports.
   */
  shutdown(signal: string): Promise<void>;
}

/**
 * The whole platform on one port: opens the ports, starts every service, listens on PORT; with METRICS_PORT set,
 * `/metrics` on that port of its own, as each service serves it in a cluster.
 */
export async function startStandalone({
  env = process.env,
  logger: givenLogger,
  graceMs = SHUTDOWN_GRACE_MS,
}: {
  env?: Environment;
  logger?: Logger;
  graceMs?: number;
} = {}): Promise<StandaloneServer> {
  const loaded = loadConfig(standaloneConfigSchema, env);
  // Links in e-mails and the QR code point where this process listens unless a public URL is given
  // (behind a proxy or on another host name): `PORT=18080 npm start` links to port 18080.
  const publicUrl = env.PUBLIC_URL || `http://localhost:${loaded.PORT}`;
  const config = { ...loaded, PUBLIC_URL: publicUrl };
  const logger = givenLogger ?? createLogger({ name: 'whistle', level: config.LOG_LEVEL });
  const rootDir = path.resolve(config.ROOT_DIR ?? path.join(__dirname, '..', '..'));
  const secrets = await loadOrCreateSecrets(config.DATA_DIR, env);

  // SENTRY_DSN unset (the default): off, the SDK is not even loaded. One client for every service.
  const errorReporter = await startErrorReporting(config, 'standalone');
  // OTEL_* unset (the default): off, nothing loaded. One tracer provider for every service of the process.
  const tracing = await startTracing('whistle', env);
  const deps = await openPorts(platformPorts, config, logger);
  const platform = createPlatform({
    config,
    env: { ...env, ...secrets, PUBLIC_URL: publicUrl },
    deps,
    rootDir,
    errorReporter,
  });
  let metrics: MetricsServer | undefined;
  let started = false;
  try {
    await platform.start();
    started = true;
    // Apart from PORT, so a proxy in front of the platform never routes it (the disk's free space is there).
    if (config.METRICS_PORT !== undefined) metrics = await startMetricsServer(config.METRICS_PORT);
  } catch (error) {
    if (started) await platform.stop().catch(() => undefined);
    await closePorts(platformPorts, deps).catch(() => undefined);
    await tracing.shutdown().catch(() => undefined);
    throw error;
  }
  const server = await new Promise<Server>((resolve) => {
    const listening = platform.app.listen(config.PORT, () => resolve(listening));
  });
  applyServerTimeouts(server);
  const requests = trackRequests(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info(
    { port, metricsPort: metrics?.port, ...adapterKinds(platformPorts, deps) },
    `Whistle is running on http://localhost:${port}`,
  );

  let stopping: Promise<void> | undefined;
  return {
    port,
    metricsPort: metrics?.port,
    shutdown(signal) {
      stopping ??= (async () => {
        logger.info({ signal }, 'shutting down');
        // The pool closes only once every handler has answered (or the grace period is over).
        const handled = await requests.close(graceMs);
        if (!handled) logger.warn({ inFlight: requests.inFlight }, 'requests still running after the grace period');
        await platform.stop();
        await closePorts(platformPorts, deps);
        await metrics?.close();
        await errorReporter.flush();
        await tracing.shutdown();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}
