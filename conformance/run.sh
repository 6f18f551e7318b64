#!/usr/bin/env bash
# make conformance: install ClawVault 3.5.2 and pi (the version OpenClaw pins)
# into a temp folder, never into the repo; run them on the demo workspace and
# on transcripts pi writes itself; then compare clawvault-tui against those
# fresh outputs. `conformance/run.sh --update` also copies them over the
# goldens in testdata/conformance/ that `make test` compares against.
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
mkdir -p "$out/clawvault" "$out/spec"

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

(cd "$work" && node pi-write.mjs "$out/pi")
cp "$repo/store/transcript/testdata/"spec-*.jsonl "$out/spec/"
{
  find "$out/pi" "$out/spec" -name '*.jsonl' | sort | (cd "$work" && node pi-tree.mjs "$out" "")
  find "$state" -path '*/sessions/*' -type f ! -name 'sessions.json*' ! -name '*.lock' ! -name '*.json' |
    sort | (cd "$work" && node pi-tree.mjs "$demo" "demo/")
} >"$out/pi-tree.jsonl"

cat >"$out/meta.json" <<META
{"seed": $seed, "now": "$now", "pathLength": 80,
 "clawvault": "$(node -p "require('$work/node_modules/clawvault/package.json').version")",
 "pi": "$(node -p "require('$work/node_modules/@mariozechner/pi-coding-agent/package.json').version")"}
META

echo "comparing clawvault-tui with the fresh reference outputs …"
(cd "$repo" && CONFORMANCE_DIR="$out" go test -count=1 -run 'Conformance' .)

if $update; then
  rm -rf "$repo/testdata/conformance"
  mkdir -p "$repo/testdata"
  cp -r "$out" "$repo/testdata/conformance"
  echo "goldens updated in testdata/conformance"
elif ! diff -r -q "$out/clawvault" "$repo/testdata/conformance/clawvault" >/dev/null 2>&1; then
  # pi invents new random ids on every run, so only ClawVault's outputs are
  # expected to match the committed goldens byte for byte.
  echo "note: ClawVault's fresh outputs differ from testdata/conformance/clawvault:"
  diff -r "$out/clawvault" "$repo/testdata/conformance/clawvault" || true
  echo "      run conformance/run.sh --update to refresh the goldens"
fi
