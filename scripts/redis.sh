#!/usr/bin/env bash
# Our own Redis instance for local dev (not the distro service), data in .local/redis.
# Usage: scripts/redis.sh start|stop|status      Env: REDIS_PORT (6379)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" # works from any cwd
DIR="$ROOT/.local/redis"
PORT="${REDIS_PORT:-6379}"
PID_FILE="$DIR/redis.pid"
LOG="$DIR/redis.log"

die() { echo "redis: $*" >&2; exit 1; }

# PING via redis-cli if present, else raw RESP over bash /dev/tcp. A -LOADING reply (AOF replay)
# does not count as ready.
pong() {
  if command -v redis-cli >/dev/null; then
    [[ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null)" == PONG ]]
  else
    timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT && printf 'PING\r\n' >&3 &&
      IFS= read -r line <&3 && [[ \$line == +PONG* ]]" 2>/dev/null
  fi
}

# Prints the pid if the redis-server we started is alive (guards against stale pid files).
our_pid() {
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null)" || return 1
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null &&
    grep -qa 'redis-server' "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

as_root() { if ((EUID == 0)); then "$@"; else sudo "$@"; fi; }

ensure_redis() {
  command -v redis-server >/dev/null && return 0
  command -v apt-get >/dev/null || die "redis-server not found and no apt-get; install Redis manually"
  echo "redis: installing Debian package redis-server..."
  export DEBIAN_FRONTEND=noninteractive
  # Try without 'apt-get update' first (fast); refresh the index only if that fails.
  as_root apt-get install -y -q redis-server >/dev/null ||
    { as_root apt-get update -q >/dev/null && as_root apt-get install -y -q redis-server >/dev/null; } ||
    die "apt-get install redis-server failed"
  # The package may auto-start the distro service on 6379 (it would shadow our instance and has
  # no AOF); we never use it, so stop it if it did start.
  if [[ -f /run/redis/redis-server.pid ]]; then
    as_root service redis-server stop >/dev/null 2>&1 ||
      as_root kill "$(cat /run/redis/redis-server.pid)" 2>/dev/null || true
  fi
  command -v redis-server >/dev/null || die "redis-server still not on PATH after install"
}

start() {
  if pong; then
    local pid; pid="$(our_pid)" || true
    echo "redis: already answering PING on 127.0.0.1:$PORT${pid:+ (pid $pid)}"
    return 0
  fi
  ensure_redis
  mkdir -p "$DIR"
  # --appendonly: accepted jobs survive restarts/crashes. Absolute paths since daemonize chdirs to --dir.
  redis-server --port "$PORT" --bind 127.0.0.1 --daemonize yes --dir "$DIR" \
    --pidfile "$PID_FILE" --logfile "$LOG" --appendonly yes ||
    die "redis-server failed to launch; see $LOG"
  local t0=$SECONDS
  while ((SECONDS - t0 < 30)); do
    if pong; then echo "redis: ready on 127.0.0.1:$PORT (pid $(cat "$PID_FILE" 2>/dev/null))"; return 0; fi
    sleep 0.2
  done
  echo "redis: not answering PING on $PORT after 30s; last 30 lines of $LOG:" >&2
  tail -n 30 "$LOG" >&2 || true
  exit 1
}

stop() {
  local pid
  if ! pid="$(our_pid)"; then
    rm -f "$PID_FILE"
    pong && echo "redis: port $PORT answers but was not started by this script; not touching it" ||
      echo "redis: not running"
    return 0
  fi
  # NOSAVE skips the RDB dump only; the AOF is still flushed and fsynced on shutdown.
  if command -v redis-cli >/dev/null; then
    redis-cli -h 127.0.0.1 -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
  else
    kill -TERM "$pid"
  fi
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PID_FILE"; echo "redis: stopped"; return 0; }
    sleep 0.1
  done
  kill -TERM "$pid" 2>/dev/null || true; sleep 2; kill -KILL "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"; echo "redis: stopped (forced)"
}

status() {
  if pong; then
    local pid; pid="$(our_pid)" || true
    echo "redis: running on 127.0.0.1:$PORT ${pid:+(pid $pid)}$([[ -n "$pid" ]] || echo '(not started by this script)')"
  else
    echo "redis: not running on 127.0.0.1:$PORT"; return 1
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
