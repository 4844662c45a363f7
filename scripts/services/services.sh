#!/usr/bin/env bash
# Local dev backing services: Redis (scripts/services/redis.sh), Neo4j (scripts/services/neo4j.sh) and, with
# REDIS_CLUSTER=1 (scripts/test.sh sets it), a three-master Redis Cluster for the cluster tests
# and bench:chat (scripts/services/redis-cluster.sh, ports 7101-7103).
# Usage: scripts/services/services.sh start|stop|status   (env vars are passed through to the scripts)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

case "${1:-}" in
  start)
    # Redis first: quick, and a failure there should not leave a 2 GB JVM behind.
    "$HERE/redis.sh" start
    if [[ "${REDIS_CLUSTER:-0}" == 1 ]]; then "$HERE/redis-cluster.sh" start; fi
    "$HERE/neo4j.sh" start
    echo "services: up — redis://127.0.0.1:${REDIS_PORT:-6379}  bolt://127.0.0.1:${NEO4J_BOLT_PORT:-1234}"
    ;;
  stop)
    # Try both even if one fails; report failure at the end.
    rc=0
    "$HERE/neo4j.sh" stop || rc=1
    # Other Neo4j versions started here (NEO4J_VERSION=current by scripts/test.sh), by their pid files.
    for d in "$HERE"/../../.local/neo4j-*/; do
      [[ -f "$d/neo4j.pid" ]] && { NEO4J_VERSION="$(basename "$d" | sed 's/^neo4j-//')" "$HERE/neo4j.sh" stop || rc=1; }
    done
    "$HERE/redis-cluster.sh" stop || rc=1
    "$HERE/redis.sh" stop || rc=1
    exit "$rc"
    ;;
  status)
    rc=0
    "$HERE/redis.sh" status || rc=1
    # The cluster counts once it was ever started here.
    if [[ "${REDIS_CLUSTER:-0}" == 1 || -d "$HERE/../../.local/redis-cluster" ]]; then "$HERE/redis-cluster.sh" status || rc=1; fi
    "$HERE/neo4j.sh" status || rc=1
    exit "$rc"
    ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
