#!/bin/sh
# The Go packages of this module that differ from HEAD: a .go file or a
# test's data edited, staged or new (not ignored). One ./dir a line; none
# when nothing changed. make check tests these.
git status --porcelain --untracked-files=all 2>/dev/null |
  sed 's/^...//; s/.* -> //' |
  grep -E '\.go$|/testdata/' |
  sed -E 's#/testdata/.*##; s#/[^/]*\.go$##; s#^[^/]*\.go$#.#' |
  sort -u |
  while read -r dir; do
    if ls "$dir"/*.go >/dev/null 2>&1; then echo "./$dir" | sed 's#^\./\.$#.#'; fi
  done
