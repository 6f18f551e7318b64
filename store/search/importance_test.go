package search

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

// demoIndex is an index over the demo workspace (vault, workspaces and
// transcripts), built once per test.
func demoIndex(t *testing.T) *Index {
	t.Helper()
	dir := t.TempDir()
	m := demotest.Shared(t, demotest.Spec{Options: demo.ScaleOptions(1, 1, time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))})
	env := store.Env{Getenv: func(string) string { return "" }, Home: dir, Cwd: dir}
	ws, err := store.Locate(env, store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		t.Fatal(err)
	}
	opt, err := OptionsFor(ws, store.SearchConfig{Transcripts: true, CacheDir: filepath.Join(dir, "cache")}, env)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

// hitLines lists hits as they are shown: place, score, snippet.
func hitLines(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s %s:%d %.6f %q", h.Root, h.Rel, h.Line, h.Score, h.Snippet))
	}
	return out
}

// A query of filters only walks the importance values from the top
// (byImportance) once it matches many sections: on the demo workspace,
// with the walk forced, every such query gives the hits, scores and count
// of bleve's own sort by importance and id, at every page size.
func TestFilterOnlyWalkIsTheSortByImportance(t *testing.T) {
	ix := demoIndex(t)
	defer func(was uint64) { maxSortedByImportance = was }(maxSortedByImportance)
	queries := []string{
		"i>=0.8", "i>0.5", "i<0.5", "i=0.9", "c<0.9", "c>=0.95 i<=0.6",
		"type:decision", "type:decision,lesson i>=0.5", "type:fact -i>=0.5", "-type:todo",
		"path:decisions", "path:projects", "path:memory", "path:ledger/observations/2026/11 i>=0.85",
		"path:projects -type:decision", "type:task path:tasks",
	}
	searched := 0
	for _, q := range queries {
		for _, limit := range []int{1, 7, 20, 200, 5000} {
			for _, roots := range [][]string{nil, {"vault"}, {"workspace/main"}} {
				opt := SearchOptions{Limit: limit, Roots: roots}
				maxSortedByImportance = math.MaxUint64
				sorted, err := ix.Search(context.Background(), q, opt)
				if err != nil {
					t.Fatalf("%q: %v", q, err)
				}
				maxSortedByImportance = 0
				walked, err := ix.Search(context.Background(), q, opt)
				if err != nil {
					t.Fatalf("%q: %v", q, err)
				}
				if got, want := hitLines(walked.Hits), hitLines(sorted.Hits); !slices.Equal(got, want) || walked.Total != sorted.Total {
					t.Fatalf("%q limit %d roots %v: walked %d of %d\n%v\nsorted %d of %d\n%v", q, limit, roots, len(got), walked.Total, got, len(want), sorted.Total, want)
				}
				searched += len(sorted.Hits)
			}
		}
	}
	if searched < 10000 {
		t.Fatalf("only %d hits compared: the queries match too little of the demo", searched)
	}
}
