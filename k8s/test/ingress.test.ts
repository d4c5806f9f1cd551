import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { K8sObject, kubectlAvailable, kustomize, parseManifests, readRoutingTable, repoRoot, schemaErrors, unknownFieldErrors, workloadForPath } from './support';

const table = readRoutingTable();
const committedText = readFileSync(join(repoRoot, 'k8s/base/ingress.yaml'), 'utf8');
const [committed] = parseManifests(committedText);

/** The backend ingress-nginx picks for a path among Prefix paths: the longest matching one, by whole segments. */
function backendFor(ingress: K8sObject, path: string): { name: string; port: number } | undefined {
  const paths: any[] = ingress.spec.rules[0].http.paths;
  const routes = paths.map((p) => ({ prefix: p.path, workload: JSON.stringify(p.backend.service) }));
  const chosen = workloadForPath(routes, path);
  return chosen && (({ name, port }) => ({ name, port: port.number }))(JSON.parse(chosen));
}

describe('generated Ingress (k8s/base/ingress.yaml)', () => {
  it('when the generator runs, then it reproduces the committed file (regenerate: node k8s/scripts/generate-ingress.mjs)', () => {
    const result = spawnSync(process.execPath, [join(repoRoot, 'k8s/scripts/generate-ingress.mjs'), '--stdout'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(committedText).toBe(result.stdout);
  });

  it('when read, then it says it is generated from the routing table and must not be edited', () => {
    expect(committedText.split('\n')[0]).toBe(
      '# generated from packages/contracts/src/routing/routes.json by k8s/scripts/generate-ingress.mjs — do not edit',
    );
  });

  it('when read, then it is a valid Ingress with exactly one Prefix path per route, to the workload Service on its table port', () => {
    expect(schemaErrors(committed)).toEqual([]);
    expect(unknownFieldErrors([committed])).toEqual([]);
    const paths = committed.spec.rules[0].http.paths;
    expect(paths).toHaveLength(table.routes.length);
    for (const route of table.routes) {
      const path = paths.find((p: any) => p.path === route.prefix);
      expect({ prefix: route.prefix, pathType: path?.pathType, backend: path?.backend.service }).toEqual({
        prefix: route.prefix,
        pathType: 'Prefix',
        backend: { name: route.workload, port: { number: table.workloads[route.workload].port } },
      });
    }
  });

  it.each([
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
  ])('when ingress-nginx matches %s, then it reaches %s like the routing table says', (path, workload) => {
    expect(workloadForPath(table.routes, path)).toBe(workload);
    expect(backendFor(committed, path)).toEqual({ name: workload, port: table.workloads[workload].port });
  });

  it('when the table gains a route, then the generator renders it (the check is not vacuous)', () => {
    const script = `import('${join(repoRoot, 'k8s/scripts/generate-ingress.mjs')}').then(({ renderIngress }) => {
      const table = ${JSON.stringify(table)};
      table.routes.unshift({ prefix: '/api/reports', workload: 'incident' });
      process.stdout.write(renderIngress(table));
    })`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).not.toBe(committedText);
    expect(parseManifests(result.stdout)[0].spec.rules[0].http.paths[0]).toEqual({
      path: '/api/reports',
      pathType: 'Prefix',
      backend: { service: { name: 'incident', port: { number: 8082 } } },
    });
  });

  (kubectlAvailable ? it : it.skip)('(needs kubectl) when an overlay is rendered, then its Ingress keeps every route of the table and every backend Service exists on that port', () => {
    const objects = kustomize('k8s/overlays/production');
    const ingress = objects.find((o) => o.kind === 'Ingress')!;
    const services = objects.filter((o) => o.kind === 'Service');
    for (const path of ingress.spec.rules[0].http.paths) {
      const service = services.find((s) => s.metadata.name === path.backend.service.name);
      expect(service?.spec.ports.map((p: any) => p.port)).toContain(path.backend.service.port.number);
    }
    expect(ingress.spec.rules[0].http.paths.map((p: any) => p.path)).toEqual(table.routes.map((r) => r.prefix));
  });
});
