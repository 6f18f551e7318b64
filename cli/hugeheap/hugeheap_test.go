package hugeheap

import (
	"runtime/debug"
	"testing"
)

func TestWanted(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"status", "--json"}, true},
		{[]string{"--state-dir", "/x", "status"}, true},
		{[]string{"tree", "a.jsonl"}, true},
		{[]string{"search", "statuses"}, false},
		{[]string{"search", "status"}, false},
		{[]string{"search", "--reindex", "postgresql"}, true},
		{[]string{"-v", "/vault", "search", "x", "--reindex"}, true},
		{[]string{"status", "--reindex"}, true},
		{[]string{"search", "--reindex=true", "x"}, true},
		{[]string{"search", "--limit", "5", "x"}, false},
		{[]string{"tree", "x", "--", "search", "--reindex"}, true},
		{[]string{"tree", "--json", "status"}, true},
		{[]string{"search", "tree"}, false},
		{[]string{"--", "status"}, false},
		{nil, false},
	} {
		if got := wanted(tc.args); got != tc.want {
			t.Errorf("wanted(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// reserve turns the collector off while it allocates, and puts the
// setting back as it found it.
func TestReserveRestoresTheCollector(t *testing.T) {
	was := debug.SetGCPercent(150)
	defer debug.SetGCPercent(was)
	reserve(32 << 20)
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("GC percent after reserve: %d, want 150", got)
	}
}
