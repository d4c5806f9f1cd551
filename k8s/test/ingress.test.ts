import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_CIPHERTEXT_OVERHEAD, MAX_FILE_SIZE } from '../../packages/contracts/src/http/incident';
import {
  K8sObject,
  kubectlAvailable,
  kustomize,
  parseManifests,
  readRoutingTable,
  repoRoot,
  schemaErrors,
  unknownFieldErrors,
  workloadForPath,
} from './support';

const table = readRoutingTable();
const committedText = readFileSync(join(repoRoot, 'k8s/base/ingress.yaml'), 'utf8');
const committedAll = parseManifests(committedText);
const [committed] = committedAll;
const committedFile = committedAll.find((o) => o.metadata.name === 'whistle-file')!;
/** Largest upload body the file service accepts (services/file MAX_UPLOAD_BODY_BYTES): base64 of the largest ciphertext + 64 KiB metadata. */
const MAX_UPLOAD_BODY_BYTES = Math.ceil((MAX_FILE_SIZE + FILE_CIPHERTEXT_OVERHEAD) / 3) * 4 + 64 * 1024;
const bytesOf = (size: string) =>
  Number(/^\d+/.exec(size)![0]) * ({ k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[size.slice(-1).toLowerCase()] ?? 1);
const bodySizeOf = (ingress: K8sObject) => ingress.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-body-size'];

/** The backend ingress-nginx picks for a path among the Prefix paths of every Ingress of the host: the longest matching one, by whole segments. */
function backendFor(ingresses: K8sObject[], path: string): { name: string; port: number; ingress: string } | undefined {
  const routes = ingresses.flatMap((ingress) =>
    (ingress.spec.rules[0].http.paths as any[]).map((p) => ({
      prefix: p.path,
      workload: JSON.stringify({ ...p.backend.service, ingress: ingress.metadata.name }),
    })),
  );
  const chosen = workloadForPath(routes, path);
  return chosen ? (({ name, port, ingress }) => ({ name, port: port.number, ingress }))(JSON.parse(chosen)) : undefined;
}

describe('generated Ingress (k8s/base/ingress.yaml)', () => {
  it('when the generator runs, then it reproduces the committed file (regenerate: node k8s/scripts/generate-ingress.mjs)', () => {
    const result = spawnSync(process.execPath, [join(repoRoot, 'k8s/scripts/generate-ingress.mjs'), '--stdout'], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(committedText).toBe(result.stdout);
  });

  it('when read, then it says it is generated from the routing table and must not be edited', () => {
    expect(committedText.split('\n')[0]).toBe(
      '# generated from packages/contracts/src/routing/routes.json by k8s/scripts/generate-ingress.mjs — do not edit',
    );
  });

  it('when read, then it is two valid Ingresses with exactly one Prefix path per route, to the workload Service on its table port', () => {
    expect(committedAll.map((o) => o.metadata.name)).toEqual(['whistle', 'whistle-file']);
    expect(committedAll.flatMap(schemaErrors)).toEqual([]);
    expect(unknownFieldErrors(committedAll)).toEqual([]);
    const paths = committedAll.flatMap((o) => o.spec.rules[0].http.paths);
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

  it('when read, then only the file routes accept an upload body (~33.4 MB), every other route a small one', () => {
    expect(committedFile.spec.rules[0].http.paths.map((p: any) => p.backend.service.name)).toEqual(
      table.routes.filter((r) => r.workload === 'file').map(() => 'file'),
    );
    expect(committed.spec.rules[0].http.paths.map((p: any) => p.backend.service.name)).not.toContain('file');
    expect(bytesOf(bodySizeOf(committedFile))).toBeGreaterThanOrEqual(MAX_UPLOAD_BODY_BYTES);
    expect(bytesOf(bodySizeOf(committedFile))).toBeLessThan(MAX_UPLOAD_BODY_BYTES * 1.25);
    expect(bytesOf(bodySizeOf(committed))).toBeLessThan(MAX_UPLOAD_BODY_BYTES);
    expect(bytesOf(bodySizeOf(committed))).toBeGreaterThanOrEqual(1024 * 1024); // the services' JSON BODY_LIMIT (1mb)
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
    expect(backendFor(committedAll, path)).toEqual({
      name: workload,
      port: table.workloads[workload].port,
      ingress: workload === 'file' ? 'whistle-file' : 'whistle',
    });
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

  (kubectlAvailable ? it : it.skip)(
    '(needs kubectl) when an overlay is rendered, then its Ingress keeps every route of the table and every backend Service exists on that port',
    () => {
      const objects = kustomize('k8s/overlays/production');
      const paths = objects.filter((o) => o.kind === 'Ingress').flatMap((ingress) => ingress.spec.rules[0].http.paths);
      const services = objects.filter((o) => o.kind === 'Service');
      for (const path of paths) {
        const service = services.find((s) => s.metadata.name === path.backend.service.name);
        expect(service?.spec.ports.map((p: any) => p.port)).toContain(path.backend.service.port.number);
      }
      expect(paths.map((p: any) => p.path).sort()).toEqual(table.routes.map((r) => r.prefix).sort());
    },
  );
});
