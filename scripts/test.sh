#!/usr/bin/env bash
# `npm test`: every test of the platform, in the order their inputs exist.
set -euo pipefail
cd "$(dirname "$0")/.."
export PACT_DO_NOT_TRACK=true CI="${CI:-}"

bash scripts/ensure-test-infra.sh
# Test tools kept out of the workspaces (each package.json says why).
npm install --prefix tools/k8s-binaries --omit=peer --no-audit --no-fund --loglevel=error
# Static checks first: they take seconds and name the file to fix.
npx prettier --check . --log-level warn
npx tsc -p tsconfig.json
npx lerna run build
# Frontends first: their Pact consumer tests write pacts/*.json, which the services' provider tests verify.
npx lerna run test --stream --concurrency 1 --scope '@whistle/shell' --scope '@whistle/mfe-*' --scope '@whistle/ui' --scope '@whistle/api-client'
npx lerna run test --stream --concurrency 1 --ignore '@whistle/shell' --ignore '@whistle/mfe-*' --ignore '@whistle/ui' --ignore '@whistle/api-client' --ignore '@whistle/e2e'
npm run test:deploy
npx lerna run test --stream --scope '@whistle/e2e'
