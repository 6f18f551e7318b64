#!/usr/bin/env bash
# make bench-compare: status, tree and search as whole processes beside the
# tools a user would run instead, at every size of the README's scaling
# table (cli/compare_bench_test.go, BenchmarkCompare). ClawVault 3.5.2 is
# installed from npm into a temp folder (as make conformance does), ripgrep
# from Debian when it is missing; the demo data goes to the system temp
# folder ($TMPDIR/clawvault-tui-bench, about 3 GB, reused by later runs),
# never into the repository. Prints the table as Markdown.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo '{"private": true, "dependencies": {"clawvault": "3.5.2"}}' >"$work/package.json"
echo "installing clawvault@3.5.2 in $work …"
(cd "$work" && npm install --no-audit --no-fund --loglevel=error >/dev/null)

if ! command -v rg >/dev/null; then
  echo "installing ripgrep …"
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y ripgrep >/dev/null || (apt-get update >/dev/null && apt-get install -y ripgrep >/dev/null)
  else
    sudo apt-get install -y ripgrep >/dev/null
  fi
fi

cd "$repo"
CLAWVAULT_JS="$work/node_modules/clawvault/bin/clawvault.js" BENCH_COMPARE=1 \
  go test ./cli -run '^$' -bench '^BenchmarkCompare$' -benchtime 1x -timeout 180m
