#!/usr/bin/env bash
# Real Neo4j Community (embedded, with Bolt) for local dev — no Docker, no tarball. 5.26 LTS by
# default; NEO4J_VERSION picks another release: `current` (the calendar release the tests also run
# on, CURRENT_VERSION below) or a release number such as 2025.10.0.
# Usage: scripts/services/neo4j.sh start|stop|status|restart
# Env:   NEO4J_VERSION (lts = 5.26.30; current), NEO4J_BOLT_PORT (1234), NEO4J_JAVA_HOME (a JDK to use; default: the
#        first that fits of JAVA_HOME, java on PATH, /usr/lib/jvm/*, /opt/*), NEO4J_HEAP (2g),
#        NEO4J_PAGECACHE (512m), NEO4J_JAVA_OPTS (extra JVM flags), NEO4J_TX_LOG_RETENTION ("256M size":
#        transaction logs kept; Neo4j's own default is 2 days), NEO4J_TX_LOG_ROTATION (64m),
#        NEO4J_TX_MEMORY (256m per transaction), NEO4J_TX_MEMORY_TOTAL (1g for all transactions),
#        NEO4J_PLUGIN (1: load the change-log plugin, plugin/, from $DIR/plugins as a server does;
#        0: start without it; default 1 on 2025.x and later, 0 on 5.x: see install_plugin)
# State: .local/neo4j/{lib,data,logs/debug.log,neo4j.log,neo4j.pid} for 5.26.x; any other
#        version has its own .local/neo4j-<version>/ (jars, store, logs), so a store is never opened
#        by another version (a newer one would upgrade it for good). Two versions run side by side
#        on two ports: NEO4J_VERSION=current NEO4J_BOLT_PORT=1235 scripts/services/neo4j.sh start
set -euo pipefail

DEFAULT_VERSION=5.26.30  # LTS; bump here; a changed version re-resolves the jars (see ensure_jars)
CURRENT_VERSION=2026.09.0 # the calendar release scripts/test.sh also runs the graph suites on
NEO4J_VERSION="${NEO4J_VERSION:-lts}"
case "$NEO4J_VERSION" in lts) NEO4J_VERSION="$DEFAULT_VERSION" ;; current) NEO4J_VERSION="$CURRENT_VERSION" ;; esac
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)" # works from any cwd
[[ "$NEO4J_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "neo4j: NEO4J_VERSION '$NEO4J_VERSION' is lts, current or a release number like 2026.09.0" >&2; exit 2; }
MAJOR="${NEO4J_VERSION%%.*}"
# The LTS line keeps the directory it always had (stores and pid files of existing checkouts).
if [[ "$NEO4J_VERSION" == 5.26.* ]]; then DIR="$ROOT/.local/neo4j"; else DIR="$ROOT/.local/neo4j-$NEO4J_VERSION"; fi
LIB="$DIR/lib"
PID_FILE="$DIR/neo4j.pid"
LOG="$DIR/neo4j.log"
PORT="${NEO4J_BOLT_PORT:-1234}"
JAVA="" # chosen by pick_java when starting

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
# The pid file's process, if it is alive and is our launcher on that directory's jars (stale pid
# file / pid reuse -> none). $1: the state directory (default this version's).
our_pid() {
  local dir="${1:-$DIR}" pid
  pid="$(cat "$dir/neo4j.pid" 2>/dev/null)" && [[ -n "$pid" ]] && alive "$pid" &&
    grep -qa 'Launcher.java' "/proc/$pid/cmdline" 2>/dev/null &&
    grep -qaF "$dir/lib/" "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

# The version of another Neo4j started by this script that listens on $PORT, if any.
other_on_port() {
  local d
  for d in "$ROOT"/.local/neo4j "$ROOT"/.local/neo4j-*; do
    [[ "$d" != "$DIR" && -d "$d" ]] || continue
    our_pid "$d" >/dev/null && grep -q "neo4j ready on bolt://127.0.0.1:$PORT\$" "$d/neo4j.log" 2>/dev/null &&
      { cat "$d/lib/.version" 2>/dev/null || echo '?'; } && return 0
  done
  return 1
}
# Who answers on $PORT when it is not this version's instance, for messages.
owner_of_port() {
  local v
  if v="$(other_on_port)"; then echo "Neo4j $v started by this script, not $NEO4J_VERSION"; else echo 'not started by this script'; fi
}

# Resolve the runtime jars once into .local/neo4j/lib; the marker file holds the version.
ensure_jars() {
  [[ "$(cat "$LIB/.version" 2>/dev/null)" == "$NEO4J_VERSION" ]] && return 0
  command -v mvn >/dev/null || die "maven not found (Debian: apt-get install -y maven)"
  echo "neo4j: resolving org.neo4j:neo4j:$NEO4J_VERSION jars with maven (125-155 MB download unless cached in ~/.m2)..."
  local args=(-B -q -Dstyle.color=never -f "$ROOT/scripts/services/neo4j/pom.xml" -Dneo4j.version="$NEO4J_VERSION"
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

# Java versions this Neo4j runs on: 5.x on 17 or 21, the calendar releases (2025.01 on) on 21 or newer.
if [[ "$MAJOR" == 5 ]]; then JAVA_NEEDS="17 or 21"; else JAVA_NEEDS="21 or newer"; fi
java_fits() { if [[ "$MAJOR" == 5 ]]; then [[ "$1" == 17 || "$1" == 21 ]]; else [[ "$1" =~ ^[0-9]+$ ]] && (("$1" >= 21)); fi; }
java_major() { "$1" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1; }

# Sets JAVA to the first Java that fits this version: NEO4J_JAVA_HOME (must fit), else JAVA_HOME,
# java on PATH, then the JDKs under /usr/lib/jvm and /opt (Debian's and Temurin's places).
pick_java() {
  local j v seen=()
  if [[ -n "${NEO4J_JAVA_HOME:-}" ]]; then
    j="$NEO4J_JAVA_HOME/bin/java"
    [[ -x "$j" ]] || die "NEO4J_JAVA_HOME=$NEO4J_JAVA_HOME has no bin/java"
    v="$(java_major "$j")"
    java_fits "$v" || die "Neo4j $NEO4J_VERSION needs Java $JAVA_NEEDS; NEO4J_JAVA_HOME is Java ${v:-unknown} ($j)"
    JAVA="$j"; return 0
  fi
  local candidates=()
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME/bin/java")
  command -v java >/dev/null && candidates+=("$(command -v java)")
  candidates+=(/usr/lib/jvm/*/bin/java /opt/*/bin/java /opt/*/*/bin/java)
  for j in "${candidates[@]}"; do
    [[ -x "$j" ]] || continue
    v="$(java_major "$j")"
    java_fits "$v" && { JAVA="$j"; return 0; }
    seen+=("Java ${v:-?} ($j)")
  done
  die "Neo4j $NEO4J_VERSION needs Java $JAVA_NEEDS; found ${seen[*]:-no java at all}. Install one (Debian: apt-get install openjdk-17-jdk-headless for 5.x; a JDK 21 or 25 such as Temurin for 2025.x and later) or point NEO4J_JAVA_HOME at it"
}

# The change-log plugin (plugin/; docs/indexing.md): build the jar of this version's line if
# needed and put it in $DIR/plugins, which is on the class path and is the server's plugin
# directory, as in a server install. NEO4J_PLUGIN=0 takes it out. On by default from 2025.x,
# where a listener can decline old values; off by default on 5.x, where any transaction
# listener makes every commit copy the old values it removes or replaces, which costs a
# megabyte-valued graph's writes minutes (docs/indexing.md, "The change-log plugin").
install_plugin() {
  local line jar want=1
  mkdir -p "$DIR/plugins"
  [[ "$MAJOR" == 5 ]] && want=0
  if [[ "${NEO4J_PLUGIN:-$want}" == 0 ]]; then rm -f "$DIR"/plugins/graph-chat-changes-*.jar; return 0; fi
  if [[ "$MAJOR" == 5 ]]; then line=5.26; else line=2026; fi
  if [[ "$line" == 5.26 ]]; then NEO4J_LIB_526="$LIB" bash "$ROOT/plugin/build.sh" "$line"
  else NEO4J_LIB_2026="$LIB" bash "$ROOT/plugin/build.sh" "$line"; fi || die "building the change-log plugin failed (NEO4J_PLUGIN=0 starts without it)"
  jar="$ROOT/plugin/dist/graph-chat-changes-$line.jar"
  rm -f "$DIR"/plugins/graph-chat-changes-*.jar
  cp "$jar" "$DIR/plugins/"
}

start() {
  mkdir -p "$DIR"
  local pid=""
  pid="$(our_pid)" || true
  local other=""
  if bolt_answers; then
    [[ -z "$pid" ]] && other="$(other_on_port)" &&
      die "port $PORT is Neo4j $other's (started by this script); set NEO4J_BOLT_PORT to run $NEO4J_VERSION beside it"
    echo "neo4j: already running on bolt://127.0.0.1:$PORT ${pid:+(pid $pid)}$([[ -n "$pid" ]] || echo "($(owner_of_port))")"
    return 0
  elif [[ -n "$pid" ]]; then
    grep -q 'neo4j ready on' "$LOG" 2>/dev/null &&
      die "pid $pid is already running but not on port $PORT ($(grep -o 'bolt://[^ ]*' "$LOG" | tail -1)); stop it first"
    echo "neo4j: already starting (pid $pid), waiting for it to be ready"
  else
    pick_java
    ensure_jars
    install_plugin
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
      -cp "$LIB/*:$DIR/plugins/*" "$ROOT/scripts/services/neo4j/Launcher.java" >"$LOG" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$PID_FILE"
    echo "neo4j: starting $NEO4J_VERSION on Java $(java_major "$JAVA") (pid $pid, log $LOG)"
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
    bolt_answers && echo "neo4j: port $PORT answers ($(owner_of_port)); not touching it" ||
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
    echo "neo4j: running on bolt://127.0.0.1:$PORT ${pid:+(pid $pid)}$([[ -n "$pid" ]] || echo "($(owner_of_port))")"
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
