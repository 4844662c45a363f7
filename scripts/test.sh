#!/usr/bin/env bash
# The whole test suite, from a fresh clone: starts the real Neo4j and Redis (installing them if
# needed) and a local three-master Redis Cluster, builds the bundle, type-checks, lints (Biome;
# import layers with dependency-cruiser), then runs unit and integration tests (on the single
# Redis; the chat and store suites once more on the cluster) and the slower suites: the reference
# check of the embeddings against model2vec (a venv from PyPI) and the browser suite (installing
# Debian's chromium if needed); then the suites that touch the graph once more on Neo4j's current
# calendar release (scripts/services/neo4j.sh's NEO4J_VERSION=current, Bolt port 1235, Java 21+ found on
# the machine), as 5.26 LTS is the default everywhere else; last, schemathesis against the
# service's OpenAPI document (scripts/test/schemathesis.sh); the last line adds up every runner's counts
# (scripts/test/test-tally.mjs: CI reads it). Arguments narrow the vitest run and
# skip the slower suites: `npm test -- --project unit` or `npm test -- test/integration/chat/`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each runner leaves its counts here; the last line of a full run adds them up (scripts/test/test-tally.mjs).
TALLY=test-output/tally
rm -rf "$TALLY" && mkdir -p "$TALLY"
n=0
vitest() { n=$((n + 1)); npx vitest run --reporter=default --reporter=json --outputFile.json="$TALLY/vitest-$n.json" "$@"; }

REDIS_CLUSTER=1 bash scripts/services/services.sh start
npm run --silent build
npx tsc --noEmit -p .
npm run --silent lint
vitest "$@"
if [ "$#" -eq 0 ]; then
  # The chat and store suites once more on the three-master cluster (hash slots, split steps).
  TEST_KVSTORE_URL=redis+cluster://127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103 vitest --project integration test/integration/chat/ test/integration/vector-index/build/build.test
  bash test/reference/run.sh --reporter=default --reporter=json --outputFile.json="$TALLY/reference.json"
  bash scripts/test/install-chromium.sh
  vitest --config vitest.e2e.config.ts
  # Graph-facing integration suites on the current calendar release (Cypher 25 available).
  NEO4J_VERSION=current NEO4J_BOLT_PORT=1235 bash scripts/services/neo4j.sh start
  # Both jars of the change-log plugin compile (the 2026 one, loaded by that server, is tested below).
  bash plugin/build.sh all
  # (In vector-index/search/ only the searcher's suites: bounds and name-only run on 5.26 alone.)
  TEST_GRAPHDB_PORT=1235 GRAPHDB_PORT=1235 vitest --project integration test/integration/graph/ \
    test/integration/vector-index/build/ test/integration/vector-index/index/ test/integration/vector-index/sync/ \
    test/integration/vector-index/search/searcher test/integration/status/ test/integration/mcp/ \
    test/integration/agent/ test/integration/cli/eval/ test/integration/chat/lookup-index test/integration/routes/
  # The OpenAPI document against the running service: schemathesis from PyPI, every check and
  # phase, on a stack of its own (about 2 minutes; docs/benchmarks.md).
  SCHEMATHESIS_REPORT_DIR="$TALLY" bash scripts/test/schemathesis.sh
fi
node scripts/test/test-tally.mjs "$TALLY"
