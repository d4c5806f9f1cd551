// Helpers of the deployment checks: the routing table, kubectl, YAML documents and Kubernetes schema validation.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { FILE_CIPHERTEXT_OVERHEAD, MAX_FILE_SIZE } from '../../packages/contracts/src/http/incident';
import { k8sBinaries } from './k8s-binaries';

export const repoRoot = join(__dirname, '..', '..');

export interface RoutingTable {
  workloads: Record<string, { kind: 'service' | 'frontend'; port: number }>;
  routes: { prefix: string; workload: string }[];
  localeNamespaces: Record<string, string>;
}

export function readRoutingTable(): RoutingTable {
  return JSON.parse(readFileSync(join(repoRoot, 'packages/contracts/src/routing/routes.json'), 'utf8'));
}

/** Workload that serves a path by the table's rule: longest prefix, matching whole path segments. */
export function workloadForPath(routes: { prefix: string; workload: string }[], path: string): string | undefined {
  const matches = routes.filter(({ prefix }) => {
    const p = prefix.replace(/\/+$/, '');
    return p === '' || path === p || path.startsWith(p + '/');
  });
  matches.sort((a, b) => b.prefix.length - a.prefix.length);
  return matches[0]?.workload;
}

/** Image repository of a workload, before any registry prefix: whistle/<name>-service or whistle/<frontend>. */
export const imageRepositoryOf = (workload: string) =>
  readRoutingTable().workloads[workload].kind === 'service' ? `whistle/${workload}-service` : `whistle/${workload}`;

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(doc.errors.map(String).join('\n'));
      return doc.toJS();
    })
    .filter((obj) => obj != null);
}

/** `kubectl kustomize <dir>` with the bundled kubectl 1.31 (kustomize 5.4): no cluster needed. */
export function kustomize(dir: string): K8sObject[] {
  const result = spawnSync(k8sBinaries().kubectl, ['kustomize', join(repoRoot, dir)], {
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

/**
 * Module of the models of an apiVersion: kubernetes-models for Kubernetes' own APIs, and
 * @kubernetes-models/prometheus-operator (the Prometheus Operator's CRD schemas, same generator and base) for
 * monitoring.coreos.com (ServiceMonitor, PrometheusRule).
 */
const modelsModuleOf = (apiVersion: string) =>
  apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : apiVersion.startsWith('gateway.networking.k8s.io/')
      ? `@kubernetes-models/gateway-api/${apiVersion}`
      : `kubernetes-models/${apiVersion}`;

/**
 * Validates one object against the Kubernetes OpenAPI schema shipped in kubernetes-models (types, required
 * fields, enums, formats). Returns the errors, empty when valid. kubernetes-models 4.5 carries the schemas of
 * Kubernetes 1.33 (no npm package ships those of 1.31); every kind rendered here is a GA API unchanged since 1.25,
 * the chart's kubeVersion floor. The schemas do not reject unknown fields: unknownFieldErrors does.
 */
export function schemaErrors(obj: K8sObject): string[] {
  let models: Record<string, any>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    models = require(modelsModuleOf(obj.apiVersion));
  } catch {
    return [`${obj.kind}/${obj.metadata?.name}: unknown apiVersion ${obj.apiVersion}`];
  }
  const Model = models[obj.kind];
  if (typeof Model !== 'function')
    return [`${obj.kind}/${obj.metadata?.name}: unknown kind ${obj.kind} in ${obj.apiVersion}`];
  try {
    new Model(obj).validate();
    return [];
  } catch (error) {
    return [`${obj.kind}/${obj.metadata?.name}: ${(error as Error).message}`];
  }
}

export function containersOf(obj: K8sObject): any[] {
  return obj.spec?.template?.spec?.containers ?? [];
}

/** What a Deployment's first container finds in its environment as plain values: its ConfigMaps (envFrom), then its env. */
export function plainEnvOf(objects: K8sObject[], deployment: K8sObject): Record<string, string> {
  const [container] = containersOf(deployment);
  const fromConfigMaps = (container.envFrom ?? []).map((source: any) => {
    const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef.name);
    if (!configMap)
      throw new Error(`${deployment.metadata.name}: ConfigMap ${source.configMapRef.name} is not rendered`);
    return configMap.data;
  });
  const literal = (container.env ?? [])
    .filter((e: any) => e.value !== undefined)
    .map((e: any) => ({ [e.name]: e.value }));
  return Object.assign({}, ...fromConfigMaps, ...literal);
}

/**
 * Fields Kubernetes does not know (a misspelt `readOnlyRootFileSystem` is silently dropped by the API server):
 * each object becomes an object literal typed with its kubernetes-models interface, and the TypeScript compiler's
 * excess-property check reports unknown fields (and wrong types). Returns the errors, empty when clean.
 */
export function unknownFieldErrors(objects: K8sObject[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'whistle-k8s-types-'));
  try {
    const source = objects
      .map(
        (o, i) =>
          `import type { I${o.kind} as T${i} } from '${modelsModuleOf(o.apiVersion)}/${o.kind}';\nexport const o${i}: T${i} = ${JSON.stringify(o)};`,
      )
      .join('\n');
    writeFileSync(join(dir, 'objects.ts'), `${source}\n`);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: 'preserve',
      moduleResolution: 'bundler',
      types: [],
      paths: {
        'kubernetes-models/*': [join(repoRoot, 'node_modules/kubernetes-models/*')],
        '@kubernetes-models/*': [join(repoRoot, 'node_modules/@kubernetes-models/*')],
      },
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['objects.ts'] }));
    const result = spawnSync(join(repoRoot, 'node_modules/.bin/tsc'), ['-p', dir], { encoding: 'utf8' });
    if (result.error) throw result.error;
    return result.stdout
      .split('\n')
      .filter((line) => line.includes('error TS'))
      .map((line) => {
        const lineNumber = Number(/objects\.ts\((\d+),/.exec(line)?.[1]);
        const object = objects[Math.floor((lineNumber - 1) / 2)];
        return `${object ? `${object.kind}/${object.metadata?.name}` : '?'}: ${line.replace(/^.*error (TS\d+): /, '$1 ')}`;
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Secret keys each workload gets (both deployments): `required` must be in the Secret, `optional` are passed with
 * `secretKeyRef.optional: true`. TOKEN_PUBLIC_KEY (auth's staff-token public key) is wired ahead of the services
 * reading it. Private keys go to their one owner only.
 */
export const expectedSecretEnv: Record<string, { required: string[]; optional: string[] }> = {
  auth: { required: ['DATABASE_URL', 'AMQP_URL', 'KEY_ENCRYPTION_KEY', 'TOKEN_SIGNING_KEY'], optional: [] },
  incident: {
    required: ['DATABASE_URL', 'AMQP_URL', 'DISCLOSER_TOKEN_PRIVATE_KEY', 'TOKEN_PUBLIC_KEY'],
    optional: [],
  },
  file: {
    required: ['DATABASE_URL', 'AMQP_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'DISCLOSER_TOKEN_PUBLIC_KEY'],
    optional: ['TOKEN_PUBLIC_KEY', 'UPLOAD_LIMIT_KEY'],
  },
  notification: { required: ['DATABASE_URL', 'AMQP_URL', 'SMTP_URL'], optional: [] },
  audit: { required: ['DATABASE_URL', 'AMQP_URL', 'TOKEN_PUBLIC_KEY'], optional: [] },
  shell: { required: [], optional: [] },
  'mfe-disclose': { required: [], optional: [] },
  'mfe-incidents': { required: [], optional: [] },
  'mfe-settings': { required: [], optional: [] },
};

export const allSecretKeys = new Set(
  Object.values(expectedSecretEnv).flatMap(({ required, optional }) => [...required, ...optional]),
);

/** Defaults of the incident service's rate limits, read from its config schema (`NAME: perWindow(10)`). */
export function incidentLimitDefaults(): Record<string, string> {
  const text = readFileSync(join(repoRoot, 'services/incident/src/config.ts'), 'utf8');
  return Object.fromEntries([...text.matchAll(/^\s+([A-Z][A-Z0-9_]*): perWindow\((\d+)\)/gm)].map((m) => [m[1], m[2]]));
}

/** Largest upload body the file service accepts (services/file MAX_UPLOAD_BODY_BYTES): base64 of the largest ciphertext + 64 KiB metadata. */
export const MAX_UPLOAD_BODY_BYTES = Math.ceil((MAX_FILE_SIZE + FILE_CIPHERTEXT_OVERHEAD) / 3) * 4 + 64 * 1024;

/** Bytes of an ingress-nginx size (`2m`, `36m`, `512k`). */
export const bytesOf = (size: string) =>
  Number(/^\d+/.exec(size)![0]) * ({ k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[size.slice(-1).toLowerCase()] ?? 1);

/** True when a label selector (`{matchLabels}` or a Service's plain map) selects these labels. */
export function selects(selector: { matchLabels?: Record<string, string> } | Record<string, string>, labels: object) {
  if ('matchExpressions' in selector) throw new Error('matchExpressions are not supported by this check');
  const wanted = (selector.matchLabels ?? selector) as Record<string, string>;
  return Object.entries(wanted).every(([key, value]) => (labels as Record<string, string>)[key] === value);
}

/** What k8s/overlays/production sets, and the chart's production-like values mirror (helm/test/chart.test.ts). */
export const productionOverlay = {
  replicas: {
    auth: 3,
    incident: 3,
    file: 3,
    notification: 1,
    audit: 1,
    shell: 2,
    'mfe-disclose': 2,
    'mfe-incidents': 2,
    'mfe-settings': 2,
  } as Record<string, number>,
  /** Of the services; the frontends keep the base's. */
  serviceResources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '768Mi' } },
};

/** Paths and the workload the routing table sends them to (longest prefix, whole segments). */
export const routingSamples: [string, string][] = [
  ['/api/account/company/audit_log/', 'audit'],
  ['/api/account/company/audit_log', 'audit'],
  ['/api/account/company/', 'auth'],
  ['/api/account/login/', 'auth'],
  ['/api/incident/file/123', 'file'],
  ['/api/incident/filed', 'incident'],
  ['/api/incident/42/message', 'incident'],
  ['/remotes/mfe-disclose/mf-manifest.json', 'mfe-disclose'],
  ['/remotes/mfe-incidents/remoteEntry.js', 'mfe-incidents'],
  ['/remotes/mfe-settings/locales/en/settings.json', 'mfe-settings'],
  ['/locales/en/disclose.json', 'shell'],
  ['/company/incidents', 'shell'],
  ['/', 'shell'],
];

/** The Service ingress-nginx sends a path to, among the Prefix paths of every Ingress of the host: the longest match. */
export function backendFor(ingresses: K8sObject[], path: string) {
  const routes = ingresses.flatMap((ingress) =>
    (ingress.spec.rules[0].http.paths as any[]).map((p) => ({
      prefix: p.path,
      workload: JSON.stringify({ ...p.backend.service, ingress: ingress.metadata.name }),
    })),
  );
  const chosen = workloadForPath(routes, path);
  if (!chosen) return undefined;
  const { name, port, ingress } = JSON.parse(chosen);
  return { name: name as string, port: port.number as number, ingress: ingress as string };
}
