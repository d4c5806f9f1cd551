import { cp, mkdtemp, rename, rm, stat } from 'node:fs/promises';
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

/** Where jest's global set-up (jest.global-setup.js) lets the journeys keep the template database of this run. */
export const TEMPLATE_DIR_VARIABLE = 'WHISTLE_E2E_TEMPLATE_DIR';

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/**
 * The database of a platform that started once on an empty data folder and stopped: PGlite's initdb and every
 * migration done, nothing else in it. Made on first use in a run (a fresh start, as any first start) and copied
 * into each new data folder after that: a fresh start costs tens of seconds on a loaded 2-core machine, most of it
 * initdb and migrations in WASM, and it would be the same work for every journey. Outside jest (no template
 * folder named) there is none. Secrets, objects and mail are not copied: each platform makes its own secrets.
 */
async function templateDatabase(): Promise<string | undefined> {
  const folder = process.env[TEMPLATE_DIR_VARIABLE];
  if (!folder) return undefined;
  const pgdata = path.join(folder, 'pgdata');
  if (await exists(pgdata)) return pgdata;
  const staging = await mkdtemp(path.join(tmpdir(), 'whistle-e2e-template-'));
  try {
    const first = await startStandalone({ dataDir: staging, fresh: true });
    await first.stop();
    if (first.process.child.exitCode !== 0)
      throw new Error(`The template platform exited with ${first.process.child.exitCode}\n${first.process.output()}`);
    // Whole or not at all: another worker making it at the same time finds it there, or its own rename fails.
    await rename(path.join(staging, 'pgdata'), pgdata).catch(async (error: unknown) => {
      if (!(await exists(pgdata))) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return pgdata;
}

/**
 * Runs the built standalone platform (`standalone/dist/main.js`) on embedded defaults in a new data folder, whose
 * database is a copy of the run's template (see `templateDatabase`) unless `fresh` asks for an empty folder (a
 * first start that creates and migrates the database itself). A given `dataDir` is used as it is.
 * `host` names the platform in its public URL: `localhost` for WebAuthn, which takes no IP address as relying party.
 */
export async function startStandalone(
  options: { dataDir?: string; env?: Record<string, string>; host?: '127.0.0.1' | 'localhost'; fresh?: boolean } = {},
): Promise<StandalonePlatform> {
  let dataDir = options.dataDir;
  if (dataDir === undefined) {
    const template = options.fresh ? undefined : await templateDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-e2e-'));
    if (template) await cp(template, path.join(dataDir, 'pgdata'), { recursive: true });
  }
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
