#!/usr/bin/env bash
# Our own Redis instance for local dev (not the distro service), data in .local/redis.
# Usage: scripts/services/redis.sh start|stop|status      Env: REDIS_PORT (6379), REDIS_DIR (.local/redis; one per instance)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)" # works from any cwd
DIR="${REDIS_DIR:-$ROOT/.local/redis}"
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

# Alive and not a zombie (an unreaped zombie would still pass kill -0).
alive() { kill -0 "$1" 2>/dev/null && [[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]]; }
# The pid file's process, if it is alive and is redis-server (stale pid file / pid reuse -> none).
our_pid() {
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null)" && [[ -n "$pid" ]] && alive "$pid" &&
    grep -qa 'redis-server' "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

as_root() { if ((EUID == 0)); then "$@"; else sudo "$@"; fi; }
# env inside as_root: sudo would drop an exported DEBIAN_FRONTEND.
apt_get() { as_root env DEBIAN_FRONTEND=noninteractive apt-get -y -q "$@"; }

ensure_redis() {
  command -v redis-server >/dev/null && return 0
  command -v apt-get >/dev/null || die "redis-server not found and no apt-get; install Redis manually"
  mkdir -p "$DIR"
  local log="$DIR/apt-install.log"
  echo "redis: installing Debian package redis-server (log: $log)..."
  # Try without 'apt-get update' first (fast); refresh the index only if that fails.
  apt_get install redis-server >"$log" 2>&1 ||
    { apt_get update >>"$log" 2>&1 && apt_get install redis-server >>"$log" 2>&1; } ||
    { tail -n 20 "$log" >&2; die "apt-get install redis-server failed (full log: $log)"; }
  # On systemd/sysvinit hosts the package auto-starts the distro service on 6379 (no AOF, would
  # shadow our instance). We just installed it and never use it: stop it (and keep it off at boot).
  if command -v systemctl >/dev/null && systemctl is-active --quiet redis-server 2>/dev/null; then
    as_root systemctl disable --now redis-server >/dev/null 2>&1 || true
  elif [[ -f /run/redis/redis-server.pid ]]; then
    as_root service redis-server stop >/dev/null 2>&1 || true
  fi
  command -v redis-server >/dev/null || die "redis-server still not on PATH after install"
}

start() {
  local pid=""
  if pong; then
    pid="$(our_pid)" || true
    echo "redis: already answering PING on 127.0.0.1:$PORT ${pid:+(pid $pid)}$([[ -n "$pid" ]] || echo '(not started by this script)')"
    return 0
  fi
  if pid="$(our_pid)"; then
    echo "redis: already starting (pid $pid), waiting for PING" # e.g. still replaying a big AOF
  else
    ensure_redis
    mkdir -p "$DIR"
    # --appendonly: accepted jobs survive restarts/crashes. Absolute paths: daemonize chdirs to --dir.
    redis-server --port "$PORT" --bind 127.0.0.1 --daemonize yes --dir "$DIR" \
      --pidfile "$PID_FILE" --logfile "$LOG" --appendonly yes ||
      die "redis-server failed to launch; see $LOG"
  fi
  local t0=$SECONDS
  while ((SECONDS - t0 < 30)); do
    if pong; then echo "redis: ready on 127.0.0.1:$PORT (pid $(cat "$PID_FILE" 2>/dev/null))"; return 0; fi
    # Daemonized child died (port taken, bad dir, ...): fail fast instead of waiting 30 s.
    ((SECONDS - t0 >= 2)) && ! our_pid >/dev/null && break
    sleep 0.2
  done
  echo "redis: not answering PING on 127.0.0.1:$PORT; last 30 lines of $LOG:" >&2
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
    alive "$pid" || { rm -f "$PID_FILE"; echo "redis: stopped"; return 0; }
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
