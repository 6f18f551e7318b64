#!/bin/sh
# fuzz.sh FUZZTIME PKG...: a run of FUZZTIME of every fuzz target of the
# packages (go test allows one target per run).
#
# Go 1.26's fuzzing coordinator can end a duration-bounded run with a bare
# "context deadline exceeded" at the deadline, under load, with no failing
# input (go.dev/issue/75804, fixed in Go 1.27). Such a run is made once
# more; a failure that writes an input to testdata/fuzz, or happens twice,
# fails.
set -u
GO=${GO:-go}
fuzztime=$1
shift
for pkg in $($GO list "$@"); do
  dir=$($GO list -f '{{.Dir}}' "$pkg")
  for t in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz'); do
    for try in 1 2; do
      echo "fuzz $pkg $t"
      before=$(ls "$dir/testdata/fuzz/$t" 2>/dev/null | wc -l)
      out=$($GO test "$pkg" -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" 2>&1)
      code=$?
      echo "$out"
      [ $code -eq 0 ] && break
      after=$(ls "$dir/testdata/fuzz/$t" 2>/dev/null | wc -l)
      if [ $try -eq 1 ] && [ "$before" = "$after" ] && echo "$out" | grep -q '^    context deadline exceeded$'; then
        echo "fuzz: $t ended at its deadline with no failing input (go.dev/issue/75804): once more"
        continue
      fi
      exit 1
    done
  done
done
