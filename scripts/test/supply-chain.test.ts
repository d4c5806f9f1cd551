import { readFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error: a plain ES module of the repository's scripts, without type declarations.
import * as supplyChain from '../lib/supply-chain.mjs';

const { dependencyTreeProblems, lockfileProblems, packagesNotForImages, productionWorkspaces } = supplyChain;

const repoRoot = path.resolve(__dirname, '..', '..');

const good = {
  lockfileVersion: 3,
  packages: {
    '': { name: 'whistle' },
    'services/auth': { name: '@whistle/auth-service' },
    'node_modules/@whistle/auth-service': { resolved: 'services/auth', link: true },
    'node_modules/ms': {
      version: '2.1.3',
      integrity: 'sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==',
    },
    'node_modules/npm-bundled-child': { version: '1.0.0', inBundle: true },
  },
};

function withEntry(key: string, entry: Record<string, unknown>) {
  return { ...good, packages: { ...good.packages, [key]: entry } };
}

describe('supply-chain check', () => {
  test('when every package has a sha512 integrity from the registry, then the lockfile passes', () => {
    expect(lockfileProblems(good, ['services/auth'])).toEqual([]);
  });

  test('when a package has no integrity, a weak one, or comes from elsewhere, then each is named', () => {
    expect(lockfileProblems(withEntry('node_modules/left-pad', { version: '1.3.0' }), ['services/auth'])).toEqual([
      'node_modules/left-pad: no sha512 integrity (none)',
    ]);
    expect(
      lockfileProblems(withEntry('node_modules/left-pad', { version: '1.3.0', integrity: 'sha1-deadbeef' }), [
        'services/auth',
      ]),
    ).toEqual(['node_modules/left-pad: no sha512 integrity (sha1-deadbeef)']);
    expect(
      lockfileProblems(
        withEntry('node_modules/left-pad', {
          version: '1.3.0',
          integrity: 'sha512-AAAA',
          resolved: 'https://evil.example.com/left-pad-1.3.0.tgz',
        }),
        ['services/auth'],
      ),
    ).toEqual([
      'node_modules/left-pad: resolved outside the npm registry (https://evil.example.com/left-pad-1.3.0.tgz)',
    ]);
    expect(
      lockfileProblems(withEntry('node_modules/evil', { resolved: '../../outside', link: true }), ['services/auth']),
    ).toEqual(['node_modules/evil: links to ../../outside, not a workspace']);
  });

  test('when npm ls finds a missing, invalid or extraneous package, then its problems are kept', () => {
    const output = JSON.stringify({ problems: ['invalid: ms@0.0.1 /repo/node_modules/ms'] });
    expect(dependencyTreeProblems(output)).toEqual(['invalid: ms@0.0.1 /repo/node_modules/ms']);
    expect(dependencyTreeProblems(JSON.stringify({ name: 'whistle' }))).toEqual([]);
  });

  test('when an image would install PGlite or a test tool, however deep, then each is named with its path', () => {
    const lockfile = {
      packages: {
        'services/auth': { dependencies: { '@whistle/service-kit': '*', helper: '1' } },
        'node_modules/@whistle/auth-service': { resolved: 'services/auth', link: true },
        'packages/service-kit': {
          dependencies: { pg: '8' },
          peerDependencies: { '@electric-sql/pglite': '0.5', typescript: '5' },
          peerDependenciesMeta: { '@electric-sql/pglite': { optional: true } },
        },
        'node_modules/@whistle/service-kit': { resolved: 'packages/service-kit', link: true },
        'node_modules/@electric-sql/pglite': {},
        'node_modules/pg': {},
        'node_modules/typescript': {},
        'node_modules/helper': { optionalDependencies: { jest: '30' } },
        // npm resolves from the package's own node_modules first: this jest, not a top-level one.
        'node_modules/helper/node_modules/jest': {},
      },
    };
    expect(packagesNotForImages(lockfile, ['@whistle/auth-service'])).toEqual([
      'typescript (@whistle/auth-service > @whistle/service-kit > typescript)',
      'jest (@whistle/auth-service > helper > jest)',
    ]);
    const required = {
      ...lockfile.packages['packages/service-kit'],
      peerDependenciesMeta: {},
      peerDependencies: { '@electric-sql/pglite': '0.5' },
    };
    expect(
      packagesNotForImages({ packages: { ...lockfile.packages, 'packages/service-kit': required } }, [
        '@whistle/service-kit',
      ]),
    ).toEqual(['@electric-sql/pglite (@whistle/service-kit > @electric-sql/pglite)']);
  });

  test('when a service Dockerfile installs its production dependencies, then its workspaces are read from it', () => {
    const dockerfile = readFileSync(path.join(repoRoot, 'services', 'auth', 'Dockerfile'), 'utf8');
    expect(productionWorkspaces(dockerfile)).toEqual([
      '@whistle/auth-service',
      '@whistle/contracts',
      '@whistle/mailer',
      '@whistle/object-store',
      '@whistle/service-kit',
      '@whistle/tokens',
      '@whistle/crypto',
    ]);
  });
});
