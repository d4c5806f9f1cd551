#!/usr/bin/env node
// After `npm install <new dependency>`: npm writes other platforms' optional binaries (darwin, win32,
// arm builds of @swc/core, @unrs/resolver-binding...) into package-lock.json, which the lockfile of this
// repository leaves out (the registry our machines reach does not serve them; see .ci/run). This removes
// such entries that the committed lockfile (HEAD) does not already have.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const committed = JSON.parse(
  execFileSync('git', ['show', 'HEAD:package-lock.json'], { encoding: 'utf8', maxBuffer: 1 << 28 }),
);
const current = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const otherPlatform =
  /node_modules\/(@swc\/core-|@unrs\/resolver-binding-|@esbuild\/|@rollup\/rollup-|@parcel\/watcher-|@nx\/nx-)/;
const pruned = Object.keys(current.packages).filter(
  (key) => !(key in committed.packages) && otherPlatform.test(key) && !key.includes('linux-x64'),
);
for (const key of pruned) delete current.packages[key];
writeFileSync('package-lock.json', `${JSON.stringify(current, null, 2)}\n`);
console.log(pruned.length > 0 ? `pruned ${pruned.length} entries of other platforms` : 'nothing to prune');
