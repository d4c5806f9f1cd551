import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseManifests, readRoutingTable, repoRoot, routingSamples, workloadForPath } from './support';

const table = readRoutingTable();
const committedText = readFileSync(join(repoRoot, 'k8s/base/ingress.yaml'), 'utf8');

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

  it('when read as kubectl and kustomize read it (YAML 1.1), then every annotation is a string: a bare off would be a boolean', () => {
    const annotations = parseAllDocuments(committedText, { version: '1.1' }).flatMap((doc) =>
      Object.entries(doc.toJS().metadata.annotations as Record<string, unknown>),
    );
    expect(annotations).toContainEqual(['nginx.ingress.kubernetes.io/proxy-request-buffering', 'off']);
    expect(annotations.filter(([, value]) => typeof value !== 'string')).toEqual([]);
  });

  // What the Ingress holds (a path per route, body sizes, routing) is checked on every rendered release: release-checks.ts.
  it.each(routingSamples)('when the routing table is asked for %s, then it answers %s', (path, workload) => {
    expect(workloadForPath(table.routes, path)).toBe(workload);
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
});
