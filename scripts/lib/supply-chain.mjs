// The checks of scripts/supply-chain.mjs as functions of their inputs, so a test can feed them a bad lockfile.
export const REGISTRY = 'https://registry.npmjs.org/';

/**
 * What lockfile-lint leaves out: a registry package without a sha512 integrity (npm then installs whatever the
 * registry serves), a `resolved` outside the registry, and a link that leaves the repository's workspaces.
 * `lockfile` is a package-lock.json (version 2 or 3); `workspaces` the folders a link may point at.
 */
export function lockfileProblems(lockfile, workspaces = []) {
  const problems = [];
  if (!lockfile.packages) return ['no "packages" section: lockfileVersion 2 or 3 expected'];
  for (const [key, entry] of Object.entries(lockfile.packages)) {
    // '' is the project itself; a key without node_modules/ is a workspace folder, installed from this repository.
    if (key === '' || !key.includes('node_modules/')) continue;
    if (entry.link) {
      if (!workspaces.includes(entry.resolved)) problems.push(`${key}: links to ${entry.resolved}, not a workspace`);
      continue;
    }
    // Shipped inside its parent's tarball, which the parent's integrity covers.
    if (entry.inBundle) continue;
    if (typeof entry.integrity !== 'string' || !entry.integrity.startsWith('sha512-'))
      problems.push(`${key}: no sha512 integrity (${entry.integrity ?? 'none'})`);
    if (entry.resolved !== undefined && !entry.resolved.startsWith(REGISTRY))
      problems.push(`${key}: resolved outside the npm registry (${entry.resolved})`);
  }
  return problems;
}

/** The workspaces a Dockerfile installs for production: the `--workspace` flags of its `npm ci … --omit=dev`. */
export function productionWorkspaces(dockerfile) {
  const commands = dockerfile.replace(/\\\n/g, ' ').split('\n');
  const install = commands.find((line) => /\bnpm ci\b/.test(line) && line.includes('--omit=dev'));
  return install ? [...install.matchAll(/--workspace[= ]+(\S+)/g)].map((match) => match[1]) : [];
}

/** `npm ls --json` output → the problems npm found (missing, invalid, extraneous), as npm words them. */
export function dependencyTreeProblems(npmLsJson) {
  return JSON.parse(npmLsJson).problems ?? [];
}

/**
 * Packages for tests, builds and the standalone platform, never for a service's image: the embedded database, the
 * test kit and the test and build tools.
 */
export const NOT_FOR_IMAGES = [
  '@electric-sql/pglite',
  '@whistle/test-support',
  '@pact-foundation/pact',
  'jest',
  'typescript',
  'webpack',
];

/**
 * The packages `npm ci --omit=dev --workspace …` installs for these workspaces, read from the lockfile as npm resolves
 * them (a package's own node_modules first, then each folder above): dependencies, optional dependencies and peer
 * dependencies that are not optional (`npm ls` would also list optional peers that merely happen to be installed).
 * Each package once, with the path that first reached it.
 */
export function productionPackages(lockfile, workspaceNames) {
  const packages = lockfile.packages;
  const resolve = (from, name) => {
    const folders = [from];
    for (let folder = from; folder; folders.push(folder)) {
      const parent = folder.lastIndexOf('/node_modules/');
      folder = parent >= 0 ? folder.slice(0, parent) : '';
    }
    const key = folders.map((folder) => `${folder ? `${folder}/` : ''}node_modules/${name}`).find((k) => packages[k]);
    return key && packages[key].link ? packages[key].resolved : key;
  };
  const trails = new Map();
  const visit = (location, trail) => {
    if (location === undefined || trails.has(location)) return;
    trails.set(location, trail);
    const entry = packages[location];
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (name) => !entry.peerDependenciesMeta?.[name]?.optional,
    );
    for (const name of [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...peers,
    ])
      visit(resolve(location, name), [...trail, name]);
  };
  for (const name of workspaceNames) visit(resolve('', name), [name]);
  return [...trails.values()];
}

/** Each package of {@link NOT_FOR_IMAGES} an image would install for these workspaces, with the path to it. */
export function packagesNotForImages(lockfile, workspaceNames, names = NOT_FOR_IMAGES) {
  return productionPackages(lockfile, workspaceNames)
    .filter((trail) => names.includes(trail.at(-1)))
    .map((trail) => `${trail.at(-1)} (${trail.join(' > ')})`);
}
