import { generateKeyPairSync, randomBytes } from 'node:crypto';
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

/** One signing key per test process, as a Secret would provide it. */
export const testSigningKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The auth service served on a loopback port as `runService` serves it, on the given dependencies. */
export async function startAuth(deps: ServiceDependencies, env: Record<string, string> = {}): Promise<RunningAuth> {
  const config = authConfigSchema.parse({
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), TOKEN_SIGNING_KEY: testSigningKey, PUBLIC_URL: 'https://whistle.example', ...env,
  });
  const service = createAuthService(deps, config);
  await service.start();
  // Loopback is the trusted proxy: tests name distinct clients with X-Forwarded-For, as an ingress would.
  const app = createHttpApp({ logger: deps.logger, services: [service], trustProxy: 'loopback' });
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
