#!/usr/bin/env bash
# Release archives and npm packages, from a clean checkout, into DIST
# (default dist/). Pure Go, no cgo: every target cross-compiles from here.
#
#   DIST/clawvault-tui_<version>_<os>_<arch>.tar.gz (.zip for windows)
#       the binary, LICENSE, README.md, CHANGELOG.md, the man page and the
#       completions for bash, zsh and fish
#   DIST/SHA256SUMS
#   DIST/npm/all/clawvault-tui-<os>-<cpu>-<version>.tgz
#       one npm package per platform, its binary inside, "os" and "cpu" set
#   DIST/npm/clawvault-tui-<version>.tgz
#       the main package: its command starts the binary of the platform
#       package npm picked among its optional dependencies
#   DIST/npm/clawvault-tui-<this os>-<this cpu>-<version>.tgz
#       this machine's platform package again, so that
#       `npm install --offline DIST/npm/*.tgz` installs a working command
#       here (npm refuses to install another platform's package directly)
#
# Usage: scripts/dist.sh [DIST]   (TARGETS="linux/amd64 …" to build fewer)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
dist=$(mkdir -p "${1:-$repo/dist}" && cd "${1:-$repo/dist}" && pwd)
version=$(tr -d ' \n' <"$repo/VERSION")
targets=${TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"}
go=${GO:-go}
cd "$repo"

rm -rf "$dist/npm" "$dist"/clawvault-tui_* "$dist/SHA256SUMS"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The man page and completions come from a binary for this machine.
echo "building for this machine (man page, completions) …"
"$go" build -buildvcs=auto -trimpath -o "$work/host/clawvault-tui" .
mkdir -p "$work/extras/completions"
"$work/host/clawvault-tui" man >"$work/extras/clawvault-tui.1"
for sh in bash zsh fish; do
  "$work/host/clawvault-tui" completion "$sh" >"$work/extras/completions/clawvault-tui.$sh"
done

npm_os() { case $1 in windows) echo win32 ;; *) echo "$1" ;; esac; }
npm_cpu() { case $1 in amd64) echo x64 ;; *) echo "$1" ;; esac; }

mkdir -p "$dist/npm/all"
for target in $targets; do
  os=${target%/*} arch=${target#*/}
  exe=clawvault-tui
  [ "$os" = windows ] && exe=clawvault-tui.exe
  name="clawvault-tui_${version}_${os}_${arch}"
  echo "building $name …"
  stage="$work/$name"
  mkdir -p "$stage"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$go" build -buildvcs=auto -trimpath \
    -ldflags "-s -w -X clawvault-tui/cli.releaseVersion=$version" -o "$stage/$exe" .
  cp LICENSE README.md CHANGELOG.md "$work/extras/clawvault-tui.1" "$stage/"
  cp -r "$work/extras/completions" "$stage/"
  if [ "$os" = windows ]; then
    (cd "$work" && rm -f "$dist/$name.zip" && zip -qr "$dist/$name.zip" "$name")
  else
    tar -C "$work" -czf "$dist/$name.tar.gz" --owner=0 --group=0 "$name"
  fi

  # The platform's npm package.
  pkg="clawvault-tui-$(npm_os "$os")-$(npm_cpu "$arch")"
  pdir="$work/npm/$pkg"
  mkdir -p "$pdir/bin"
  cp "$stage/$exe" "$pdir/bin/"
  cp LICENSE "$pdir/"
  cat >"$pdir/package.json" <<JSON
{
  "name": "$pkg",
  "version": "$version",
  "description": "The clawvault-tui binary for $(npm_os "$os") on $(npm_cpu "$arch"); install clawvault-tui, which picks it.",
  "license": "MIT",
  "os": ["$(npm_os "$os")"],
  "cpu": ["$(npm_cpu "$arch")"],
  "files": ["bin/", "LICENSE"],
  "preferUnplugged": true
}
JSON
  (cd "$pdir" && npm pack --silent --pack-destination "$dist/npm/all" >/dev/null)
done

# The main package.
main="$work/npm/clawvault-tui"
mkdir -p "$main/bin"
cp scripts/npm/clawvault-tui.js "$main/bin/clawvault-tui.js"
chmod +x "$main/bin/clawvault-tui.js"
cp LICENSE README.md "$main/"
optional=$(for target in $targets; do
  os=${target%/*} arch=${target#*/}
  printf '    "clawvault-tui-%s-%s": "%s",\n' "$(npm_os "$os")" "$(npm_cpu "$arch")" "$version"
done | sed '$ s/,$//')
cat >"$main/package.json" <<JSON
{
  "name": "clawvault-tui",
  "version": "$version",
  "description": "A terminal inspector and editor for the memory of OpenClaw agents kept by ClawVault.",
  "license": "MIT",
  "bin": { "clawvault-tui": "bin/clawvault-tui.js" },
  "files": ["bin/", "LICENSE", "README.md"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {
$optional
  }
}
JSON
(cd "$main" && npm pack --silent --pack-destination "$dist/npm" >/dev/null)

# This machine's platform package beside the main one (see above).
host="clawvault-tui-$(node -p 'process.platform + "-" + process.arch')-$version.tgz"
if [ -f "$dist/npm/all/$host" ]; then
  cp "$dist/npm/all/$host" "$dist/npm/"
fi

(cd "$dist" && sha256sum clawvault-tui_* npm/all/*.tgz npm/clawvault-tui-"$version".tgz >SHA256SUMS)
echo "wrote $dist:"
(cd "$dist" && ls -1 clawvault-tui_* SHA256SUMS npm/*.tgz npm/all/*.tgz)
