#!/usr/bin/env bash
# Starts the service on $PORT (8000, web UI on $UI_PORT 8501) with its real Neo4j (Bolt 1234)
# and Redis (6379): installs and starts them if needed, builds the bundle, and on a first run
# loads the sample graph and indexes it; prints a readiness summary once the server is up. The
# server runs until Ctrl-C; the databases keep running (`npm run services:stop` stops them). Reads .env when present.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -f .env ]; then set -a; . ./.env; set +a; fi
[ -d node_modules ] || npm install
bash scripts/services/services.sh start
npm run --silent build

loaded=$(node dist/cli.js load-sample --if-empty)
echo "$loaded"
case "$loaded" in
  "sample graph loaded"*)
    # First run: index the sample with the default model so lookups work at once. Best effort:
    # without the model files (no hub access) the API still runs and says how to build it.
    model=${EMBEDDING_MODEL:-minishlab/potion-base-32M}
    if [ ! -f "${MODELS_DIR:-./models}/$model/tokenizer.json" ]; then
      bash scripts/fetch-models "$model" || echo "start: model $model not fetched; vector search needs it" >&2
    fi
    node dist/cli.js build-index ||
      echo "start: index not built; later: scripts/fetch-models $model && scripts/build-index" >&2
    ;;
esac
# The server in the background only so that the readiness summary can be printed once it is up
# (`node dist/cli.js status`: what works, and the command for each missing piece).
node dist/node.js &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true' INT TERM
node dist/cli.js status --wait 60 || true
# `wait` returns early when a signal arrives; wait again for the server's orderly shutdown.
wait "$server" || { code=$?; wait "$server" 2>/dev/null || true; exit "$code"; }
