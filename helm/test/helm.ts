// Runs the real helm 3.17 (k8s/test/k8s-binaries.ts) on helm/whistle: lint and template with a values file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { k8sBinaries } from '../../k8s/test/k8s-binaries';
import { K8sObject, parseManifests, repoRoot } from '../../k8s/test/support';

export const chartDir = join(repoRoot, 'helm/whistle');
/** Kubernetes version the checks render for: that of the bundled kubectl. */
export const kubeVersion = '1.31.0';

export interface HelmOptions {
  release?: string;
  namespace?: string;
  /** Values on top of values.yaml (a key set to null removes a default). */
  values?: unknown;
  kubeVersion?: string;
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  /** helm's messages, without its note that files/routes.json is a symlink (on purpose: see chart.test.ts). */
  stderr: string;
}

function run(command: string[], { values = {}, kubeVersion: version = kubeVersion }: HelmOptions): HelmResult {
  const { helm, helmEnv } = k8sBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'whistle-helm-'));
  try {
    writeFileSync(join(dir, 'values.json'), JSON.stringify(values)); // JSON is YAML
    const result = spawnSync(helm, [...command, '-f', join(dir, 'values.json'), '--kube-version', version], {
      encoding: 'utf8',
      env: helmEnv,
      maxBuffer: 32 * 1024 * 1024,
    });
    if (result.error) throw result.error;
    const stderr = result.stderr
      .split('\n')
      .filter((line) => line && !/found symbolic link in path: .*files\/routes\.json/.test(line))
      .join('\n');
    return { status: result.status, stdout: result.stdout, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function helmTemplate(options: HelmOptions = {}): HelmResult {
  const { release = 'whistle', namespace = 'whistle' } = options;
  return run(['template', release, chartDir, '--namespace', namespace], options);
}

/** Renders and parses; throws with helm's message when it refuses. */
export function renderChart(options: HelmOptions = {}): K8sObject[] {
  const result = helmTemplate(options);
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

/** `helm lint --strict`: warnings fail too. */
export function helmLint(options: HelmOptions = {}): HelmResult {
  return run(['lint', chartDir, '--strict', '--namespace', options.namespace ?? 'whistle'], options);
}
