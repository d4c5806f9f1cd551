import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpApp, type ServiceDependencies, type WhistleService } from '@whistle/service-kit';
import { authConfigSchema } from '../src/config';
import { createAuthService } from '../src/service';

export interface RunningAuth {
  baseUrl: string;
  service: WhistleService;
  close(): Promise<void>;
}

/** The auth service served on a loopback port as `runService` serves it, on the given dependencies. */
export async function startAuth(deps: ServiceDependencies, env: Record<string, string> = {}): Promise<RunningAuth> {
  const config = authConfigSchema.parse({ KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), PUBLIC_URL: 'https://whistle.example', ...env });
  const service = createAuthService(deps, config);
  await service.start();
  const app = createHttpApp({ logger: deps.logger, services: [service] });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    service,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.stop();
    },
  };
}
