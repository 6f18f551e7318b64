package search

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
)

func TestPrefixOfCutsAtACharacterBoundary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"aé", 2, "a"}, // é is two bytes: not cut in half
		{"aé", 3, "aé"},
		{"日本", 4, "日"},
		{"日本", 2, ""},
		{"\xff\xfe\xfd", 2, "\xff\xfe"}, // invalid bytes are each a boundary
	} {
		if got := prefixOf(tc.s, tc.n); got != tc.want {
			t.Errorf("prefixOf(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if got := string(prefixOf([]byte(tc.s), tc.n)); got != tc.want {
			t.Errorf("prefixOf([]byte(%q), %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// Every token the analyzers give, in documents and in queries, is at most
// maxTokenBytes long, and a long word still finds itself.
func TestTokensAreCapped(t *testing.T) {
	t.Parallel()
	an := newAnalyzers(newMapping())
	long := strings.Repeat("é", maxTokenBytes) // twice the cap, in bytes
	for _, text := range []string{long, "short " + long + " words", strings.Repeat("x", 3*maxTokenBytes)} {
		for name, tokens := range map[string]int{"english": len(an.english.Analyze([]byte(text))), "code": len(an.code.Analyze([]byte(text)))} {
			if tokens == 0 {
				t.Errorf("%s analyzer: no token of %.20q", name, text)
			}
		}
		for _, tok := range append(an.english.Analyze([]byte(text)), an.code.Analyze([]byte(text))...) {
			if len(tok.Term) > maxTokenBytes {
				t.Errorf("a token of %d bytes from %.20q…", len(tok.Term), text)
			}
		}
	}
	e := newEnv(t)
	e.write("vault/a.md", "# A\n"+long+"\n")
	if hits := find(t, e.open(), long+long); len(hits) != 1 || hits[0].Line != 2 {
		t.Errorf("a long word does not find itself: %v", where(hits))
	}
}

// A section line over maxLineBytes is indexed up to the cut: a word before
// it is found, and its hit says the line was cut; a word after it is not.
// A 3 MB line took 14 s before (a 3 MB token in each field).
func TestBadInputIsIndexedNotFatal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/empty.md", "")
	e.write("vault/binary.md", "\x00\xff\xfe garbage \xc3 validword \x80\n")
	huge := "startword " + strings.Repeat("x", 3<<20) + " hugeword"
	e.write("vault/huge-line.md", huge+"\n")
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Sync(context.Background(), nil)
	if err != nil || len(st.Problems) != 1 || !strings.Contains(st.Problems[0], fmt.Sprintf("huge-line.md:1: the line is %d bytes; only its first %d are searched", len(huge), maxLineBytes)) {
		t.Fatalf("sync: %q %v", st.Problems, err)
	}
	for _, w := range []string{"validword", "startword"} {
		hits := find(t, ix, w)
		if len(hits) != 1 || hits[0].Line != 1 || !slices.Equal(highlighted(hits[0]), []string{w}) {
			t.Errorf("%s: %+v", w, hits)
		}
	}
	hits := find(t, ix, "startword")
	if h := hits[0]; h.LineBytes != len(huge) || !strings.HasSuffix(h.Snippet, "[line cut: 3 MiB, of which the first 64 KiB are searched]") || len(h.Snippet) > 400 {
		t.Errorf("the hit on a cut line: %d bytes, %q", h.LineBytes, h.Snippet)
	}
	if hits := find(t, ix, "hugeword"); len(hits) != 0 {
		t.Errorf("a word past the cut was indexed: %v", where(hits))
	}
	if hits := find(t, ix, "validword"); hits[0].LineBytes != 0 || strings.Contains(hits[0].Snippet, "cut") {
		t.Errorf("a whole line said to be cut: %+v", hits[0])
	}
}

// tokenBytes is the size of the single token of the tests below. One of
// 10 MB in a transcript took 46 s and 8 GB; what indexing allocated grew
// with the token (1.2 GB for one of 1 MB), so 2 MB shows it as well.
const tokenBytes = 2 << 20

// syncAllocates syncs a new index over e and returns what the sync
// allocated, and its stats. The callers are not parallel: the figure is
// the process's.
func syncAllocates(t *testing.T, e *testEnv) (uint64, Stats) {
	t.Helper()
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	var st Stats
	alloc := allocatedBy(func() { st, err = ix.Sync(context.Background(), nil) })
	if err != nil {
		t.Fatal(err)
	}
	// The token, capped in the query as in the index, finds itself.
	for _, w := range []string{"firstword", strings.Repeat("a", 2*maxTokenBytes)} {
		if hits := find(t, ix, w); len(hits) != 1 || hits[0].LineBytes == 0 {
			t.Errorf("%.20s: %+v, want one hit on the cut line", w, hits)
		}
	}
	return alloc, st
}

// allocatedBy is what the process allocated while fn ran: tests that use
// it are not parallel.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// checkLinear fails unless indexing the one-token text allocated a small
// multiple of its size (reading it, decoding its JSON), independent of the
// token's length, and reported the cut.
func checkLinear(t *testing.T, alloc uint64, st Stats, where string) {
	t.Helper()
	if alloc > 8*tokenBytes {
		t.Errorf("indexing a %d MB token allocated %d MB", tokenBytes>>20, alloc>>20)
	}
	if len(st.Problems) != 1 || !strings.Contains(st.Problems[0], where) || !strings.Contains(st.Problems[0], "only its first") {
		t.Errorf("problems: %.200q", st.Problems)
	}
}

func oneToken() string { return "firstword " + strings.Repeat("a", tokenBytes) }

func TestALongTokenInATranscript(t *testing.T) {
	e := newEnv(t)
	e.write("sessions/big.jsonl", `{"type":"message","message":{"role":"user","content":"`+oneToken()+`"}}`+"\n")
	alloc, st := syncAllocates(t, e)
	checkLinear(t, alloc, st, "big.jsonl:1:")
}

func TestALongTokenInMemory(t *testing.T) {
	e := newEnv(t)
	e.write("workspace/MEMORY.md", oneToken())
	alloc, st := syncAllocates(t, e)
	checkLinear(t, alloc, st, "MEMORY.md:1:")
}

func TestALongTokenInASQLiteEvent(t *testing.T) {
	e := newEnv(t)
	store := e.path("state/agents/ops/agent/" + agentdb.FileName)
	sid := "22222222-2222-4222-8222-222222222222"
	event := fmt.Sprintf(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-20T08:00:00.000Z","message":{"role":"user","content":%q}}`, oneToken())
	err := demo.WriteAgentStore(store, demo.AgentStore{AgentID: "ops", Now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), Sessions: []demo.StoreSession{{
		Key: "agent:ops:main", SessionID: sid, Entry: []byte(`{"sessionId":"` + sid + `"}`), Lines: [][]byte{
			[]byte(`{"type":"session","version":3,"id":"` + sid + `","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w"}`),
			[]byte(event),
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	e.opt.Roots = append(e.opt.Roots, Root{ID: "sqlite/ops", Kind: SQLiteRoot, Agent: "ops", Dir: sqliteRootDir(store), Store: store})
	alloc, st := syncAllocates(t, e)
	checkLinear(t, alloc, st, store+" seq 1:")
}

// FuzzCutsRoundTrip: what encodeCuts stores, cutOf reads back, and any
// stored value (the index is a file on disk) reads without a panic.
func FuzzCutsRoundTrip(f *testing.F) {
	f.Add(0, 70000, "0:70000,3:1048576")
	f.Add(5, 65537, "")
	f.Add(-1, 0, ":,,1:x,2:-4,99999999999999999999:1")
	f.Fuzz(func(t *testing.T, index, bytes int, stored string) {
		cutOf(stored, index)
		if index < 0 || bytes <= 0 {
			return
		}
		cuts := []lineCut{{index: index, bytes: bytes}, {index: index + 1, bytes: bytes + 1}}
		enc := string(encodeCuts(cuts))
		if got := cutOf(enc, index); got != bytes {
			t.Fatalf("%q: line %d cut from %d, want %d", enc, index, got, bytes)
		}
		if got := cutOf(enc, index+2); got != 0 {
			t.Fatalf("%q: line %d not cut reads %d", enc, index+2, got)
		}
	})
}
