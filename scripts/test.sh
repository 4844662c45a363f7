#!/usr/bin/env bash
# The whole test suite, from a fresh clone: starts the real Neo4j and Redis (installing them if
# needed), builds the bundle, type-checks, then runs unit, integration and browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/services.sh start
npm run --silent build
npx tsc --noEmit -p .
npx vitest run "$@"
