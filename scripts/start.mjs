#!/usr/bin/env node
// `npm start`: builds the workspaces whose build output is missing, then runs the whole platform in
// this process on embedded defaults (PGlite under ./data, in-process bus, files and mail on disk).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const folders = workspaces.flatMap((pattern) => {
  if (!pattern.endsWith('/*')) return [pattern];
  const parent = pattern.slice(0, -2);
  return execFileSync('ls', [path.join(root, parent)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((name) => `${parent}/${name}`);
});
const missing = folders
  .map((folder) => ({ folder, pkg: JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) }))
  .filter(({ folder, pkg }) => pkg.scripts?.build && !existsSync(path.join(root, folder, 'dist')))
  .map(({ pkg }) => pkg.name);

if (missing.length > 0) {
  console.log(`Building ${missing.join(', ')} ...`);
  const scopes = missing.flatMap((name) => ['--scope', name]);
  execFileSync('npx', ['lerna', 'run', 'build', '--include-dependencies', ...scopes], { cwd: root, stdio: 'inherit' });
}

await import(path.join(root, 'standalone', 'dist', 'main.js'));
