import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), for failure messages and log checks. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node <script>` with `env`, capturing its output; `stop()` sends SIGTERM and waits for the exit. */
export function startNodeProcess(name: string, script: string, env: Record<string, string>): RunningProcess {
  return startProcess(name, process.execPath, [script], env);
}

/** Starts `command args` with `env` added to this process's, capturing its output; `stop()` as above. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
): RunningProcess {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    output: () => Buffer.concat(chunks).toString('utf8'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
