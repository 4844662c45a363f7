#!/usr/bin/env bash
# The whole test suite, from a fresh clone: starts the real Neo4j and Redis (installing them if
# needed) and a local three-master Redis Cluster, builds the bundle, type-checks, lints (Biome;
# import layers with dependency-cruiser), then runs unit and integration tests (on the single
# Redis; the chat and store suites once more on the cluster) and the slower suites: the reference
# check of the embeddings against model2vec (a venv from PyPI) and the browser suite (installing
# Debian's chromium if needed). Arguments narrow the vitest run and skip the slower suites:
# `npm test -- test/unit`.
set -euo pipefail
cd "$(dirname "$0")/.."

REDIS_CLUSTER=1 bash scripts/services.sh start
npm run --silent build
npx tsc --noEmit -p .
npm run --silent lint
npx vitest run "$@"
if [ "$#" -eq 0 ]; then
  # The chat and store suites once more on the three-master cluster (hash slots, split steps).
  TEST_KVSTORE_URL=redis+cluster://127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103 npx vitest run test/integration/chat- test/integration/index-build.test
  bash test/reference/run.sh
  bash scripts/install-chromium.sh
  npx vitest run --config vitest.e2e.config.ts
fi
