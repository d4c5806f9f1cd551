#!/usr/bin/env node
// The workspaces whose npm tree an image carries, for its SBOM (scripts/images/build.sh): a service's production
// workspaces (its --omit=dev install), or else a frontend's build workspaces (what its bundle is made from).
import { readFileSync } from 'node:fs';
import { productionWorkspaces } from '../lib/supply-chain.mjs';

const dockerfile = readFileSync(process.argv[2], 'utf8');
const production = productionWorkspaces(dockerfile);
const build = [...dockerfile.replace(/\\\n/g, ' ').matchAll(/--workspace[= ]+(\S+)/g)].map((match) => match[1]);
console.log((production.length > 0 ? production : build).join(' '));
