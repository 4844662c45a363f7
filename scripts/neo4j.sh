#!/usr/bin/env bash
# Real Neo4j 5.26 LTS Community (embedded, with Bolt) for local dev — no Docker, no tarball.
# Usage: scripts/neo4j.sh start|stop|status|restart
# Env:   NEO4J_BOLT_PORT (1234), NEO4J_HEAP (2g), NEO4J_PAGECACHE (512m), NEO4J_JAVA_OPTS (extra JVM flags),
#        NEO4J_TX_MEMORY (256m per transaction), NEO4J_TX_MEMORY_TOTAL (1g for all transactions)
# State: .local/neo4j/{lib,data,logs/debug.log,neo4j.log,neo4j.pid}
set -euo pipefail

NEO4J_VERSION=5.26.30 # bump here; a changed version re-resolves the jars (see ensure_jars)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" # works from any cwd
DIR="$ROOT/.local/neo4j"
LIB="$DIR/lib"
PID_FILE="$DIR/neo4j.pid"
LOG="$DIR/neo4j.log"
PORT="${NEO4J_BOLT_PORT:-1234}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

die() { echo "neo4j: $*" >&2; exit 1; }

# Real Bolt handshake over bash /dev/tcp (no cypher-shell needed): magic 0x6060B017, then
# propose Bolt 5.0-5.8 and 4.4; any non-zero 4-byte version reply means a Bolt server answered.
bolt_answers() {
  local reply
  reply="$(timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT &&
    printf '\x60\x60\xb0\x17\x00\x08\x08\x05\x00\x00\x04\x04\x00\x00\x00\x00\x00\x00\x00\x00' >&3 &&
    head -c 4 <&3 | od -An -tx1" 2>/dev/null | tr -d ' \n')" || return 1
  [[ -n "$reply" && "$reply" != 00000000 ]]
}

# Alive and not a zombie (an unreaped zombie would still pass kill -0).
alive() { kill -0 "$1" 2>/dev/null && [[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]]; }
# The pid file's process, if it is alive and is our launcher (stale pid file / pid reuse -> none).
our_pid() {
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null)" && [[ -n "$pid" ]] && alive "$pid" &&
    grep -qa 'Launcher.java' "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

# Resolve the runtime jars once into .local/neo4j/lib; the marker file holds the version.
ensure_jars() {
  [[ "$(cat "$LIB/.version" 2>/dev/null)" == "$NEO4J_VERSION" ]] && return 0
  command -v mvn >/dev/null || die "maven not found (Debian: apt-get install -y maven)"
  echo "neo4j: resolving org.neo4j:neo4j:$NEO4J_VERSION jars with maven (~125 MB download unless cached in ~/.m2)..."
  local args=(-B -q -Dstyle.color=never -f "$ROOT/scripts/neo4j/pom.xml" -Dneo4j.version="$NEO4J_VERSION"
    dependency:copy-dependencies -DoutputDirectory="$LIB.tmp")
  rm -rf "$LIB.tmp"
  # Offline first (fast, no network when ~/.m2 is warm); fall back to Maven Central. Output is
  # captured (Maven 3.8 -q still prints stray ANSI codes) and shown only on failure.
  local out
  if ! mvn -o "${args[@]}" >/dev/null 2>&1; then
    out="$(mvn "${args[@]}" 2>&1)" || { echo "$out" | sed 's/\x1b\[[0-9;]*m//g' | tail -n 30 >&2
      die "maven could not resolve neo4j $NEO4J_VERSION (is Maven Central reachable?)"; }
  fi
  rm -rf "$LIB" && mv "$LIB.tmp" "$LIB" # swap in only a complete set
  echo "$NEO4J_VERSION" >"$LIB/.version"
}

check_java() {
  command -v "$JAVA" >/dev/null || die "java not found; Neo4j 5.26 needs Java 17 or 21"
  local v
  v="$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
  [[ "$v" == 17 || "$v" == 21 ]] || die "Neo4j 5.26 needs Java 17 or 21, found '${v:-unknown}' ($JAVA)"
}

start() {
  mkdir -p "$DIR"
  local pid=""
  pid="$(our_pid)" || true
  if bolt_answers; then
    echo "neo4j: already running on bolt://127.0.0.1:$PORT ${pid:+(pid $pid)}$([[ -n "$pid" ]] || echo '(not started by this script)')"
    return 0
  elif [[ -n "$pid" ]]; then
    grep -q 'neo4j ready on' "$LOG" 2>/dev/null &&
      die "pid $pid is already running but not on port $PORT ($(grep -o 'bolt://[^ ]*' "$LOG" | tail -1)); stop it first"
    echo "neo4j: already starting (pid $pid), waiting for it to be ready"
  else
    check_java
    ensure_jars
    [[ -f "$LOG" ]] && mv -f "$LOG" "$LOG.prev" # keep the previous run's output for post-mortems
    # Flags the official neo4j launcher also sets: -Xms silences the JvmChecker warning, the
    # add-opens let the page cache / native IO use the fast paths instead of fallbacks.
    # ExitOnOutOfMemoryError: a heap exhausted by an untracked allocation used to leave the
    # server wedged (every call failing, SIGTERM ignored); exiting lets `start` bring it back.
    local opts=(-Xms512m "-Xmx${NEO4J_HEAP:-2g}" -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow
      -XX:+ExitOnOutOfMemoryError
      --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
      --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true
      -Dlog4j2.disable.jmx=true)
    # shellcheck disable=SC2086 # NEO4J_JAVA_OPTS is intentionally word-split
    NEO4J_HOME_DIR="$DIR" NEO4J_BOLT_PORT="$PORT" nohup "$JAVA" "${opts[@]}" ${NEO4J_JAVA_OPTS:-} \
      -cp "$LIB/*" "$ROOT/scripts/neo4j/Launcher.java" >"$LOG" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$PID_FILE"
    echo "neo4j: starting $NEO4J_VERSION (pid $pid, log $LOG)"
  fi
  # Ready = launcher printed its ready line AND a Bolt handshake succeeds.
  local t0=$SECONDS
  while ((SECONDS - t0 < 120)); do
    if ! alive "$pid"; then
      echo "neo4j: process exited during startup; last 30 lines of $LOG:" >&2
      tail -n 30 "$LOG" >&2 || true
      rm -f "$PID_FILE"
      exit 1
    fi
    if grep -q "neo4j ready on bolt://127.0.0.1:$PORT" "$LOG" 2>/dev/null && bolt_answers; then
      echo "neo4j: ready on bolt://127.0.0.1:$PORT (no auth) after $((SECONDS - t0))s"
      return 0
    fi
    sleep 0.5
  done
  echo "neo4j: not ready after 120s (pid $pid still running; see also $DIR/logs/debug.log); last 30 lines of $LOG:" >&2
  tail -n 30 "$LOG" >&2 || true
  exit 1
}

stop() {
  local pid
  if ! pid="$(our_pid)"; then
    rm -f "$PID_FILE"
    bolt_answers && echo "neo4j: port $PORT answers but was not started by this script; not touching it" ||
      echo "neo4j: not running"
    return 0
  fi
  echo "neo4j: stopping (pid $pid)"
  kill -TERM "$pid" # shutdown hook closes the databases cleanly (checkpoint)
  for _ in $(seq 120); do # 60 s at 0.5 s
    alive "$pid" || { rm -f "$PID_FILE"; echo "neo4j: stopped"; return 0; }
    sleep 0.5
  done
  echo "neo4j: still alive after 60s, sending SIGKILL (next start will run recovery)" >&2
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"
}

status() {
  local pid=""
  pid="$(our_pid)" || true
  if bolt_answers; then
    echo "neo4j: running on bolt://127.0.0.1:$PORT ${pid:+(pid $pid)}$([[ -n "$pid" ]] || echo '(not started by this script)')"
  elif [[ -n "$pid" ]]; then
    echo "neo4j: process $pid alive but Bolt not answering on $PORT (starting or unhealthy)"; return 1
  else
    echo "neo4j: not running"; return 1
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  restart) stop && start ;;
  *) echo "usage: $0 start|stop|status|restart" >&2; exit 2 ;;
esac
