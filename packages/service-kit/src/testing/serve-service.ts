import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpApp, type HttpAppOptions } from '../http/http-app';
import type { Logger } from '../logging/logger';
import type { WhistleService } from '../service';

export interface ServedService {
  baseUrl: string;
  /** Closes the port, then stops the service if `serveService` started it. */
  close(): Promise<void>;
}

/**
 * A service on a loopback port, served as `runService` serves it (same HTTP app), for tests.
 * `start: false` serves an instance beside one already started (its migrations, consumers and relay
 * run once: a bus takes one consumer of a name).
 */
export async function serveService(
  service: WhistleService,
  logger: Logger,
  {
    start = true,
    trustProxy,
    bodyIdleTimeoutMs,
  }: { start?: boolean; trustProxy?: HttpAppOptions['trustProxy']; bodyIdleTimeoutMs?: number } = {},
): Promise<ServedService> {
  if (start) await service.start();
  const app = createHttpApp({ logger, services: [service], trustProxy, bodyIdleTimeoutMs });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (start) await service.stop();
    },
  };
}
