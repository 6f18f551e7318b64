package hugeheap

import "testing"

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

// reserve leaves the heap working: what it freed is reused.
func TestReserve(t *testing.T) {
	reserve(32 << 20)
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = byte(i)
	}
	if b[1<<20-1] != 0xff {
		t.Fatal("the heap after reserve does not hold what was written")
	}
}
