#!/usr/bin/env bash
# Schemathesis (pinned, from PyPI, in a venv under .local/) against the service's own OpenAPI
# document: every check, every phase (examples, coverage, fuzzing, stateful). It runs on a stack
# of its own (test/contract/stack.ts: the service with its chat worker on SCHEMATHESIS_PORT, the
# scripted model server, the sample graph indexed with the generated test model), which removes
# what it added when the run ends. Exceptions a schema cannot express are in
# test/contract/schemathesis.toml. A request may take 60 s (a first index build on a loaded
# machine takes more than schemathesis's default 10). Exit status: schemathesis's.
# Usage: scripts/test/schemathesis.sh [schemathesis run options]
# Env:   SCHEMATHESIS_PORT (18400; the UI takes the next), SCHEMATHESIS_SEED (33), GRAPHDB_PORT,
#        KVSTORE_URL (the service's defaults: Neo4j on 1234, Redis on 6379), SCHEMATHESIS_REPORT_DIR
#        (where the JUnit report goes; test-output/schemathesis)
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=4.32.5
VENV=.local/schemathesis-venv
OUT=test-output/schemathesis
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "version $VERSION\$"; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$VERSION"
fi
mkdir -p "$OUT"
npm run --silent models:test >/dev/null
npx tsup test/contract/stack.ts --no-config --format esm --platform node --target node20 --out-dir "$OUT/stack" --silent

PORT="${SCHEMATHESIS_PORT:-18400}"
PORT="$PORT" UI_PORT="$((PORT + 1))" HOST=127.0.0.1 KV_PREFIX="schemathesis-$$:" LOG_LEVEL=warn \
  GRAPHDB_URL="${GRAPHDB_URL:-127.0.0.1}" MODELS_DIR=test-output/models DATA_DIR="$OUT/data" \
  node "$OUT/stack/stack.js" >"$OUT/stack.log" 2>&1 &
STACK=$!
# The stack removes what it added on SIGTERM; wait for that before exiting.
trap 'kill -TERM "$STACK" 2>/dev/null && wait "$STACK" 2>/dev/null; rm -rf "$OUT/data"' EXIT
for _ in $(seq 240); do
  grep -q '^ready ' "$OUT/stack.log" && break
  kill -0 "$STACK" 2>/dev/null || { echo "schemathesis: the stack did not start:" >&2; tail -n 30 "$OUT/stack.log" >&2; exit 1; }
  sleep 0.5
done
grep -q '^ready ' "$OUT/stack.log" || { echo "schemathesis: the stack was not ready after 120 s" >&2; exit 1; }

# Schemathesis frames its sections pytest-style (`=== 1 warning in 45.30s ===`); CI reads such a
# closing line as pytest's, and one without "passed" as "no test ran" (stop 35 landed so, the
# tally line after it notwithstanding). The banners are redrawn with dashes; the exit status
# stays schemathesis's (pipefail).
"$VENV/bin/schemathesis" --config-file test/contract/schemathesis.toml run "http://127.0.0.1:$PORT/openapi.json" \
  --checks all --workers 1 --seed "${SCHEMATHESIS_SEED:-33}" --request-timeout 60 --report junit --report-dir "${SCHEMATHESIS_REPORT_DIR:-$OUT}" "$@" |
  sed -E 's/^=+ (.*) =+$/--- \1 ---/'

