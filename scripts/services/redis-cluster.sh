#!/usr/bin/env bash
# A local three-master Redis Cluster for tests and benchmarks (Debian's redis-server, which
# scripts/services/redis.sh installs when missing), data in .local/redis-cluster/<port>. Idempotent: start on a
# running cluster only waits for cluster_state:ok.
# Usage: scripts/services/redis-cluster.sh start|stop|status
# Env: REDIS_CLUSTER_PORTS ("7101 7102 7103"), REDIS_CLUSTER_DIR (.local/redis-cluster)
# The seed URL for KVSTORE_URL: redis+cluster://127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="${REDIS_CLUSTER_DIR:-$ROOT/.local/redis-cluster}"
read -r -a PORTS <<<"${REDIS_CLUSTER_PORTS:-7101 7102 7103}"

die() { echo "redis-cluster: $*" >&2; exit 1; }
cli() { timeout 5 redis-cli -h 127.0.0.1 -p "$1" "${@:2}" 2>/dev/null; }
pong() { [[ "$(cli "$1" ping)" == PONG ]]; }
state_ok() { cli "${PORTS[0]}" cluster info | grep -q '^cluster_state:ok'; }
# Each node runs from its own directory (nodes.conf, AOF, log, pid file).
node_dir() { echo "$DIR/$1"; }

start() {
  # scripts/services/services.sh runs scripts/services/redis.sh start first, which installs Debian's package.
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
    die "redis-server not found; scripts/services/redis.sh start installs it"
  for p in "${PORTS[@]}"; do
    pong "$p" && continue
    local d; d="$(node_dir "$p")"
    mkdir -p "$d"
    redis-server --port "$p" --bind 127.0.0.1 --daemonize yes --dir "$d" \
      --pidfile "$d/redis.pid" --logfile "$d/redis.log" --appendonly yes \
      --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000 ||
      die "redis-server failed to launch on $p; see $d/redis.log"
  done
  for p in "${PORTS[@]}"; do
    local t0=$SECONDS
    until pong "$p"; do ((SECONDS - t0 < 20)) || die "node $p does not answer PING; see $(node_dir "$p")/redis.log"; sleep 0.2; done
  done
  # A fresh set of nodes (no slots assigned yet) is joined into one cluster; a known one is kept.
  if [[ "$(cli "${PORTS[0]}" cluster info | grep '^cluster_slots_assigned:' | tr -d '\r' | cut -d: -f2)" == 0 ]]; then
    local seeds=()
    for p in "${PORTS[@]}"; do seeds+=("127.0.0.1:$p"); done
    redis-cli --cluster create "${seeds[@]}" --cluster-replicas 0 --cluster-yes >"$DIR/create.log" 2>&1 ||
      { tail -n 20 "$DIR/create.log" >&2; die "cluster create failed"; }
  fi
  local t0=$SECONDS
  until state_ok; do ((SECONDS - t0 < 30)) || die "cluster_state is not ok after 30 s"; sleep 0.2; done
  echo "redis-cluster: ready — redis+cluster://$(printf '127.0.0.1:%s,' "${PORTS[@]}" | sed 's/,$//')"
}

stop() {
  for p in "${PORTS[@]}"; do
    local pidf; pidf="$(node_dir "$p")/redis.pid"
    local pid; pid="$(cat "$pidf" 2>/dev/null)" || { echo "redis-cluster: $p not started by this script"; continue; }
    # Only our own process (pid reuse would otherwise stop a stranger).
    grep -qa 'redis-server' "/proc/$pid/cmdline" 2>/dev/null || { rm -f "$pidf"; continue; }
    cli "$p" shutdown nosave >/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$pidf"
    echo "redis-cluster: stopped $p"
  done
}

status() {
  if state_ok; then echo "redis-cluster: ok on ports ${PORTS[*]}"; else echo "redis-cluster: not ok on ports ${PORTS[*]}"; return 1; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
