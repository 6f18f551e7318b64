#!/usr/bin/env bash
# Checks what `make dist` wrote: the archives and SHA256SUMS agree, this
# machine's archive holds a binary that runs, and the npm packages install
# into an empty folder offline and give a working `npx clawvault-tui`.
# Usage: scripts/dist-check.sh [DIST]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dist=$(cd "${1:-$repo/dist}" && pwd)
version=$(tr -d ' \n' <"$repo/VERSION")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$dist" && sha256sum --quiet -c SHA256SUMS)
echo "SHA256SUMS: every file matches"

os=$(go env GOOS) arch=$(go env GOARCH)
tar -C "$work" -xzf "$dist/clawvault-tui_${version}_${os}_${arch}.tar.gz"
got=$("$work/clawvault-tui_${version}_${os}_${arch}/clawvault-tui" --version)
case $got in *"version $version"*) echo "archive: $got" ;; *) echo "archive's binary says: $got" >&2; exit 1 ;; esac

mkdir "$work/npm" && cd "$work/npm"
HOME="$work/home" npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npm install --offline --no-audit --no-fund "$dist"/npm/*.tgz >/dev/null
got=$(HOME="$work/home" npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npx --offline clawvault-tui --version)
case $got in *"version $version"*) echo "npx clawvault-tui --version: $got" ;; *) echo "npx clawvault-tui says: $got" >&2; exit 1 ;; esac
