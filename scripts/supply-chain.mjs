#!/usr/bin/env node
// Supply-chain check that needs no network (`npm audit` cannot reach its advisory service from our machines; how to
// run it where it can: docs/security.md, "Dependencies"). Part of `npm test`; a few seconds.
//   1. Every committed lockfile: each package comes from the npm registry over HTTPS under its own name, with a
//      sha512 integrity (lockfile-lint, plus the presence of the integrity, which lockfile-lint does not check);
//      workspace links point at a workspace folder of this repository.
//   2. The production dependency tree of each service image (the workspaces its Dockerfile installs with
//      `--omit=dev`) is whole: `npm ls --all --omit=dev` finds nothing missing, invalid or extraneous; and it holds
//      no package for tests, builds or the standalone platform only (PGlite, pact, jest, webpack, test-support).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  dependencyTreeProblems,
  lockfileProblems,
  packagesNotForImages,
  productionWorkspaces,
  REGISTRY,
} from './lib/supply-chain.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function gitFiles(pattern) {
  return execFileSync('git', ['ls-files', pattern], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
}

function main() {
  const failures = [];
  const lockfiles = gitFiles('*package-lock.json');
  const workspaces = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).workspaces ?? [];
  const workspaceFolders = workspaces.flatMap((glob) =>
    glob.endsWith('/*') ? gitFiles(`${glob.slice(0, -1)}*/package.json`).map(path.dirname) : [glob],
  );

  for (const file of lockfiles) {
    const lockfile = JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
    const problems = lockfileProblems(lockfile, file === 'package-lock.json' ? workspaceFolders : []);
    failures.push(...problems.map((problem) => `${file}: ${problem}`));
  }
  const lint = spawnSync(
    path.join(repoRoot, 'node_modules', '.bin', 'lockfile-lint'),
    [
      ...lockfiles.flatMap((file) => ['--path', file]),
      '--type',
      'npm',
      '--allowed-hosts',
      'npm',
      '--validate-https',
      '--validate-integrity',
      '--validate-package-names',
      '--empty-hostname',
      'false',
    ],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (lint.status !== 0) failures.push(`lockfile-lint:\n${lint.stdout}${lint.stderr}`);

  // One `npm ls` over every image's workspaces: a subset of a whole tree is whole, and npm ls takes seconds.
  const images = gitFiles('*Dockerfile')
    .map((file) => ({ file, workspaces: productionWorkspaces(readFileSync(path.join(repoRoot, file), 'utf8')) }))
    .filter((image) => image.workspaces.length > 0);
  const selected = [...new Set(images.flatMap((image) => image.workspaces))];
  const ls = spawnSync(
    'npm',
    ['ls', '--all', '--omit=dev', '--json', ...selected.flatMap((workspace) => ['--workspace', workspace])],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  let treeProblems;
  try {
    treeProblems = dependencyTreeProblems(ls.stdout);
  } catch {
    treeProblems = [`npm ls failed: ${ls.stderr.trim()}`];
  }
  if (ls.status !== 0 && treeProblems.length === 0) treeProblems = [`npm ls exited ${ls.status}: ${ls.stderr.trim()}`];
  failures.push(
    ...treeProblems.map((problem) => `production tree of ${images.map((i) => i.file).join(', ')}: ${problem}`),
  );
  const lockfile = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
  for (const image of images)
    failures.push(
      ...packagesNotForImages(lockfile, image.workspaces).map((found) => `${image.file}: not for an image: ${found}`),
    );

  if (failures.length > 0) {
    console.error(`Supply-chain check failed:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
    process.exit(1);
  }
  console.log(
    `Supply-chain check: ${lockfiles.length} lockfiles from ${REGISTRY} with sha512 integrity; ` +
      `production trees of ${images.length} images whole and free of test, build and embedded-database packages ` +
      `(${selected.length} workspaces)`,
  );
}

main();
