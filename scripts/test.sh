#!/usr/bin/env bash
# `npm test`: every test of the platform, in the order their inputs exist.
set -euo pipefail
cd "$(dirname "$0")/.."
export PACT_DO_NOT_TRACK=true CI="${CI:-}"
# Each stage's start, in minutes and seconds since the run began: CI's log then says where its time went.
stage() { printf '\n== %02d:%02d %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
trap 'stage "end (exit $?)"' EXIT

stage test infrastructure
bash scripts/ensure-test-infra.sh
# Test tools kept out of the workspaces (each package.json says why).
stage test tools
npm install --prefix tools/k8s-binaries --omit=peer --no-audit --no-fund --loglevel=error
npm install --prefix tools/lint --no-audit --no-fund --loglevel=error
# Static checks first: they take seconds and name the file to fix.
stage static checks
npx prettier --check . --log-level warn
tools/lint/node_modules/.bin/eslint -c tools/lint/eslint.config.mjs .
# One type check of every package's sources and tests: each package's own tsconfig is the root's settings on its
# src and test folders, so checking them again package by package (their `typecheck` scripts) would add nothing.
npx tsc -p tsconfig.json
# Offline supply-chain check: lockfiles (registry, integrity) and the images' production trees (npm ls).
stage supply chain
node scripts/supply-chain.mjs
stage build
npx lerna run build
# Frontends first: their Pact consumer tests write pacts/*.json, which the services' provider tests verify.
stage frontend tests
npx lerna run test --stream --concurrency 1 --scope '@whistle/shell' --scope '@whistle/mfe-*' --scope '@whistle/ui' --scope '@whistle/api-client'
# Two jest workers per package (jest's default here is one, cores - 1): the services' tests wait on PostgreSQL,
# RabbitMQ and Argon2id in turn, and each test file has its own databases, so two files at once share the cores.
stage package and service tests
npx lerna run test --stream --concurrency 1 --ignore '@whistle/shell' --ignore '@whistle/mfe-*' --ignore '@whistle/ui' --ignore '@whistle/api-client' --ignore '@whistle/e2e' -- --maxWorkers=2
stage deployment tests
npm run test:deploy
stage e2e
npx lerna run test --stream --scope '@whistle/e2e'
