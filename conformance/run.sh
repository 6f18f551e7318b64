#!/usr/bin/env bash
# make conformance: install ClawVault 3.5.2, pi (the version OpenClaw pins)
# and OpenClaw 2026.4.12 into a temp folder, never into the repo; run them on
# the demo workspace and on transcripts pi writes itself; then compare
# clawvault-tui against those fresh outputs. `conformance/run.sh --update` also copies them over the
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

(cd "$work" && node pi-write.mjs "$out/pi")
cp "$repo/store/transcript/testdata/"spec-*.jsonl "$out/spec/"
{
  find "$out/pi" "$out/spec" -name '*.jsonl' | sort | (cd "$work" && node pi-tree.mjs "$out" "")
  find "$state" -path '*/sessions/*' -type f ! -name 'sessions.json*' ! -name '*.lock' ! -name '*.json' |
    sort | (cd "$work" && node pi-tree.mjs "$demo" "demo/")
} >"$out/pi-tree.jsonl"

# OpenClaw's session maintenance, on fresh copies of the demo.
"$repo/conformance/openclaw.sh" "$work" "$out" "$repo/bin/clawvault-tui" "$now" "$seed"

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
else
  # pi invents new random ids on every run, so only ClawVault's and
  # OpenClaw's outputs are expected to match the committed goldens byte for
  # byte (OpenClaw's enforce.json holds the size of its own lock file, whose
  # pid varies: it is compared apart).
  for ref in clawvault openclaw; do
    if ! diff -r -q -x enforce.json "$out/$ref" "$repo/testdata/conformance/$ref" >/dev/null 2>&1; then
      echo "note: the fresh $ref outputs differ from testdata/conformance/$ref:"
      diff -r -x enforce.json "$out/$ref" "$repo/testdata/conformance/$ref" || true
      echo "      run conformance/run.sh --update to refresh the goldens"
    fi
  done
fi
