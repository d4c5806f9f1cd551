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
