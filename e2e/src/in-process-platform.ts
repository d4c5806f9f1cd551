import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailer } from '@whistle/mailer';
import { DiskObjectStore } from '@whistle/object-store';
import { loadConfig } from '@whistle/service-kit';
import type { TestDependencies } from '@whistle/service-kit/testing';
import { createPlatform, loadOrCreateSecrets, standaloneConfigSchema, type Platform } from '@whistle/standalone';
import { repoRoot } from './repo';

export interface InProcessPlatform {
  platform: Platform;
  baseUrl: string;
  /** Its data folder: secrets file and object store. */
  dataDir: string;
  /** The secrets it runs with (KEK, signing keys...), as an operator holds them. */
  secrets: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Every service composed in this process on a test stack's database and bus (what `npm start` runs), listening on
 * a free port of 127.0.0.1, with its own data folder. `settings` are the standalone's (e.g. TRUST_PROXY).
 */
export async function startInProcessPlatform(
  test$: TestDependencies,
  options: { mailer: Mailer; settings?: Record<string, string> },
): Promise<InProcessPlatform> {
  const settings = options.settings ?? {};
  const dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-platform-'));
  const secrets = { ...(await loadOrCreateSecrets(dataDir, {})) };
  const platform = createPlatform({
    config: loadConfig(standaloneConfigSchema, settings),
    env: { ...secrets, ...settings },
    deps: { ...test$.deps, objects: new DiskObjectStore(path.join(dataDir, 'objects')), mailer: options.mailer },
    rootDir: repoRoot,
  });
  await platform.start();
  const server = await new Promise<Server>((resolve) => {
    const listening = platform.app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    platform,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dataDir,
    secrets,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await platform.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
