import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitForHttp } from './free-port';
import { waitForMail, type Mailbox } from './mailbox';
import { startNodeProcess, type RunningProcess } from './process-group';
import { repoRoot } from './repo';

export interface StandalonePlatform {
  readonly baseUrl: string;
  readonly dataDir: string;
  /** The platform's outgoing mail (.eml files under the data folder). */
  readonly mailbox: Mailbox;
  readonly process: RunningProcess;
  /** Stops the process; the data folder stays until `dispose()` so a restart can reuse it. */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Runs the built standalone platform (`standalone/dist/main.js`) on embedded defaults in a fresh data folder.
 * `host` names the platform in its public URL: `localhost` for WebAuthn, which takes no IP address as relying party.
 */
export async function startStandalone(
  options: { dataDir?: string; env?: Record<string, string>; host?: '127.0.0.1' | 'localhost' } = {},
): Promise<StandalonePlatform> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'whistle-e2e-')));
  const port = await freePort();
  const baseUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const running = startNodeProcess('standalone', path.join(repoRoot, 'standalone', 'dist', 'main.js'), {
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'info',
    ...options.env,
  });
  try {
    // PGlite starts in seconds alone, but far slower on a loaded 2-core CI machine.
    await waitForHttp(`${baseUrl}/readyz`, 150_000, running.output);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    mailbox: (to, subject) => waitForMail(dataDir, to, subject),
    process: running,
    stop: () => running.stop(),
    async dispose() {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
