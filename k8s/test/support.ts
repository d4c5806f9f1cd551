// Helpers of the deployment checks: the routing table, kubectl, YAML documents and Kubernetes schema validation.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

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

export const kubectlAvailable = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

export function kustomize(dir: string): K8sObject[] {
  const result = spawnSync('kubectl', ['kustomize', join(repoRoot, dir)], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

/**
 * Validates one object against the Kubernetes OpenAPI schema shipped in kubernetes-models (types, required
 * fields, enums, formats). Returns the errors, empty when valid. The schemas do not reject unknown fields:
 * the fields that matter most (security context, probes) are asserted by name in the tests.
 */
export function schemaErrors(obj: K8sObject): string[] {
  let models: Record<string, any>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    models = require(`kubernetes-models/${obj.apiVersion}`);
  } catch {
    return [`${obj.kind}/${obj.metadata?.name}: unknown apiVersion ${obj.apiVersion}`];
  }
  const Model = models[obj.kind];
  if (typeof Model !== 'function') return [`${obj.kind}/${obj.metadata?.name}: unknown kind ${obj.kind} in ${obj.apiVersion}`];
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
