#!/usr/bin/env bash
# Starts the service on $PORT (8000) with its real Neo4j (Bolt 1234) and Redis (6379): installs
# and starts them if needed, builds the bundle, loads the sample graph into an empty database,
# then runs the server in the foreground (Ctrl-C stops it; the databases keep running —
# `npm run services:stop` stops them).
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || npm ci
bash scripts/services.sh start
npm run --silent build
node dist/cli.js load-sample --if-empty
exec node dist/node.js
