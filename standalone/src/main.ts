#!/usr/bin/env node
import path from 'node:path';
import type { Server } from 'node:http';
import { adapterKinds, closePorts, ConfigError, createLogger, loadConfig, openPorts } from '@whistle/service-kit';
import { standaloneConfigSchema } from './config';
import { loadOrCreateSecrets } from './secrets';
import { createPlatform, platformPorts, type Platform, type PlatformDependencies } from './platform';

/** Grace period for open requests at shutdown before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const loaded = loadConfig(standaloneConfigSchema);
  // Links in e-mails and the QR code point where this process listens unless a public URL is given
  // (behind a proxy or on another host name): `PORT=18080 npm start` links to port 18080.
  const publicUrl = process.env.PUBLIC_URL || `http://localhost:${loaded.PORT}`;
  const config = { ...loaded, PUBLIC_URL: publicUrl };
  const logger = createLogger({ name: 'whistle', level: config.LOG_LEVEL });
  const rootDir = path.resolve(config.ROOT_DIR ?? path.join(__dirname, '..', '..'));
  const secrets = await loadOrCreateSecrets(config.DATA_DIR, process.env);

  let deps: PlatformDependencies | undefined;
  let platform: Platform | undefined;
  let server: Server | undefined;
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await platform?.stop();
    if (deps) await closePorts(platformPorts, deps);
    clearTimeout(timer);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  deps = await openPorts(platformPorts, config, logger);
  platform = createPlatform({ config, env: { ...process.env, ...secrets, PUBLIC_URL: publicUrl }, deps, rootDir });
  await platform.start();
  const app = platform.app;
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(config.PORT, () => resolve(listening));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port, ...adapterKinds(platformPorts, deps) }, `Whistle is running on http://localhost:${port}`);
}

main().catch((error: unknown) => {
  // A configuration problem is the operator's to fix: say what, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
