#!/usr/bin/env bash
# Builds the change-log plugin (docs/indexing.md, "The change-log plugin") from one source tree:
#   plugin/dist/graph-chat-changes-5.26.jar  for Neo4j 5.26.x          (javac --release 17)
#   plugin/dist/graph-chat-changes-2026.jar  for Neo4j 2025.x, 2026.x  (javac --release 21)
# Usage: plugin/build.sh [5.26|2026|all] (default all). A jar newer than every source is kept.
# Compiles against the Neo4j jars scripts/services/neo4j.sh resolves (.local/neo4j/lib,
# .local/neo4j-2026.09.0/lib); NEO4J_LIB_526 / NEO4J_LIB_2026 name other directories of them.
# The JDK: NEO4J_JAVA_HOME or JAVA_HOME if it fits, else javac on PATH, /usr/lib/jvm/*, /opt/*
# (the first with javac of version >= 17 for 5.26, >= 21 for 2026).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
SRC="$HERE/src"
DIST="$HERE/dist"
die() { echo "plugin: $*" >&2; exit 1; }

javac_major() { "$1" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p' | head -1; }

# Prints the first javac of at least version $1.
pick_javac() {
  local min="$1" j v seen=() candidates=()
  [[ -n "${NEO4J_JAVA_HOME:-}" ]] && candidates+=("$NEO4J_JAVA_HOME/bin/javac")
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME/bin/javac")
  command -v javac >/dev/null && candidates+=("$(readlink -f "$(command -v javac)")")
  candidates+=(/usr/lib/jvm/*/bin/javac /opt/*/bin/javac /opt/*/*/bin/javac)
  for j in "${candidates[@]}"; do
    [[ -x "$j" ]] || continue
    v="$(javac_major "$j")"
    [[ "$v" =~ ^[0-9]+$ ]] && ((v >= min)) && { echo "$j"; return 0; }
    seen+=("javac ${v:-?} ($j)")
  done
  die "needs a JDK ${min} or newer (javac); found ${seen[*]:-none}. Install one or point NEO4J_JAVA_HOME at it"
}

# build <line> <release> <neo4j lib dir>
build() {
  local line="$1" release="$2" lib="$3" jar="$DIST/graph-chat-changes-$1.jar"
  if [[ -f "$jar" ]] && [[ -z "$(find "$SRC" "$HERE/build.sh" -newer "$jar" -type f -print -quit)" ]]; then
    return 0 # newer than every source
  fi
  compgen -G "$lib/neo4j-kernel-*.jar" >/dev/null ||
    die "no Neo4j jars in $lib to compile the $line jar against (run: NEO4J_VERSION=$([[ $line == 5.26 ]] && echo lts || echo current) scripts/services/neo4j.sh start, or set NEO4J_LIB_${line/./})"
  local javac jar_tool tmp
  javac="$(pick_javac "$release")"
  jar_tool="$(dirname "$javac")/jar"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' RETURN
  "$javac" -nowarn -Xlint:none --release "$release" -encoding UTF-8 -cp "$lib/*" -d "$tmp/classes" \
    $(find "$SRC" -name '*.java' | sort) || die "compiling the $line jar failed"
  cp -r "$SRC/META-INF" "$tmp/classes/"
  mkdir -p "$DIST"
  "$jar_tool" --create --file "$tmp/out.jar" -C "$tmp/classes" . || die "jar failed"
  mv -f "$tmp/out.jar" "$jar"
  echo "plugin: built $jar (javac $(javac_major "$javac"), --release $release)"
}

case "${1:-all}" in
  5.26) build 5.26 17 "${NEO4J_LIB_526:-$ROOT/.local/neo4j/lib}" ;;
  2026) build 2026 21 "${NEO4J_LIB_2026:-$ROOT/.local/neo4j-2026.09.0/lib}" ;;
  all)
    build 5.26 17 "${NEO4J_LIB_526:-$ROOT/.local/neo4j/lib}"
    build 2026 21 "${NEO4J_LIB_2026:-$ROOT/.local/neo4j-2026.09.0/lib}"
    ;;
  *) echo "usage: $0 [5.26|2026|all]" >&2; exit 2 ;;
esac
