#!/usr/bin/env bash
# The README's pictures, from real runs: the TUI on a fresh demo workspace in
# tmux (colours captured with capture-pane -e), drawn by charmbracelet/freeze
# into SVG files in docs/images. Run it again after a change that shows.
# Needs tmux and Go (freeze is run with go run, at a pinned version).
#
# Usage: scripts/screenshots.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/docs/images"
freeze="github.com/charmbracelet/freeze@v0.2.2"
work=$(mktemp -d)
sock="cvt-shots-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$out"

cd "$repo"
go build -o "$work/clawvault-tui" .
"$work/clawvault-tui" demo "$work/demo" --now 2026-11-25T12:00:00Z >/dev/null

# shot NAME COLS ROWS WAIT-FOR KEYS...: starts the TUI at COLS×ROWS, types
# KEYS (one send-keys each), waits until the screen shows WAIT-FOR, and
# writes docs/images/NAME.svg.
shot() {
  local name=$1 cols=$2 rows=$3 want=$4
  shift 4
  tmux -L "$sock" kill-server 2>/dev/null || true
  tmux -L "$sock" new-session -d -s shot -x "$cols" -y "$rows" \
    "env TERM=xterm-256color COLORTERM=truecolor XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache \
     XDG_DATA_HOME=$work/data OPENCLAW_STATE_DIR=$work/demo/state CLAWVAULT_PATH=$work/demo/vault \
     $work/clawvault-tui --theme dark"
  wait_for "Sessions"
  for k in "$@"; do
    tmux -L "$sock" send-keys -t shot "$k"
    sleep 0.3 # let each key's screen settle before the next
  done
  wait_for "$want"
  tmux -L "$sock" capture-pane -e -p -t shot >"$work/$name.ansi"
  go run "$freeze" "$work/$name.ansi" --language ansi --window=false --padding 20 \
    --font.family monospace --font.size 13 --line-height 1.25 -o "$out/$name.svg" >/dev/null
  echo "wrote docs/images/$name.svg ($(wc -c <"$out/$name.svg") bytes)"
}

# wait_for TEXT: polls the screen for TEXT, for up to 20 s.
wait_for() {
  for _ in $(seq 200); do
    tmux -L "$sock" capture-pane -p -t shot 2>/dev/null | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  echo "the screen never showed \"$1\":" >&2
  tmux -L "$sock" capture-pane -p -t shot >&2 || true
  exit 1
}

shot sessions 120 32 "agent:main:main"
shot transcript 120 32 "compaction" Enter
