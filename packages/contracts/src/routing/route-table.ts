import table from './routes.json';

export type WorkloadName = keyof typeof table.workloads;
export interface Route {
  prefix: string;
  workload: WorkloadName;
}

export const workloads = table.workloads as Record<WorkloadName, { kind: 'service' | 'frontend'; port: number }>;

/** Routes ordered longest prefix first, so the first match is the winner. */
export const routes: readonly Route[] = [...(table.routes as Route[])].sort(
  (a, b) => b.prefix.length - a.prefix.length,
);

/** True when `path` is `prefix` itself or below it (whole segments: `/api/account` does not match `/api/accounts`). */
export function matchesPrefix(path: string, prefix: string): boolean {
  if (prefix === '/') return path.startsWith('/');
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/** The workload that serves `path`: longest prefix wins. */
export function resolveWorkload(path: string): WorkloadName | undefined {
  return routes.find((route) => matchesPrefix(path, route.prefix))?.workload;
}

/** The prefixes a workload owns, longest first. */
export function prefixesOf(workload: WorkloadName): string[] {
  return routes.filter((route) => route.workload === workload).map((route) => route.prefix);
}

const localeOwners = Object.fromEntries(
  Object.entries(table.localeNamespaces).filter(([namespace]) => !namespace.startsWith('$')),
) as Record<string, WorkloadName>;

/** The frontend workload that ships the translation namespace `namespace`, if any. */
export function localeNamespaceOwner(namespace: string): WorkloadName | undefined {
  return Object.hasOwn(localeOwners, namespace) ? localeOwners[namespace] : undefined;
}
