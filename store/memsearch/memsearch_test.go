package memsearch

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/embedding/embedtest"
	"clawvault-tui/store/memsearch/memsearchtest"
)

// fixture is the conformance corpus as OpenClaw 2026.9.6 indexed it, with
// an embedding endpoint that behaves as told.
type fixture struct {
	agent  store.Agent
	config string
	srv    *embedtest.Server
	s      *Session
}

func newFixture(t *testing.T, fail string) *fixture {
	t.Helper()
	f := &fixture{agent: conformanceState(t, filepath.Join(conformanceDir(), "2026.9.6"))}
	f.config = filepath.Join(filepath.Dir(filepath.Dir(f.agent.Dir)), "openclaw.json")
	f.srv = &embedtest.Server{Embedder: embedtest.Embedder{Dims: 64}, Fail: fail}
	hs := httptest.NewServer(f.srv)
	t.Cleanup(hs.Close)
	f.s = &Session{HTTP: embedClient(hs), Timeout: 300 * time.Millisecond}
	t.Cleanup(func() { f.s.Close() })
	return f
}

func (f *fixture) replay(t *testing.T, query string, explain ...string) *Report {
	t.Helper()
	rep, err := f.s.Replay(context.Background(), f.request(query, explain...))
	if err != nil {
		t.Fatalf("%q: %v", query, err)
	}
	return rep
}

func (f *fixture) request(query string, explain ...string) Request {
	return Request{Agent: f.agent, ConfigPath: f.config, Getenv: func(string) string { return "" }, Query: query,
		Explain: explain, Now: memsearchtest.Now}
}

// write runs statements on the store as another writer would.
func (f *fixture) write(t *testing.T, statements string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+f.agent.SQLitePath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(statements); err != nil {
		t.Fatal(err)
	}
}

func codes(rep *Report) map[string]string {
	out := map[string]string{}
	for _, e := range rep.Explain {
		out[e.Path] = e.Code
	}
	return out
}

func TestExplainEachReason(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	// A file written after OpenClaw indexed, and an edit it has not seen.
	ws := f.agent.Workspace
	if err := os.WriteFile(filepath.Join(ws, "memory", "2026-11-21.md"), []byte("# 2026-11-21\ncoffee tasting\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f2, _ := os.OpenFile(filepath.Join(ws, "MEMORY.md"), os.O_APPEND|os.O_WRONLY, 0)
	f2.WriteString("- Coffee grinder: burr, medium-fine.\n")
	f2.Close()
	rep := f.replay(t, "dark roast coffee", "MEMORY.md", "memory/2026-10-22.md", "memory/2026-11-21.md", "DREAMS.md", "USER.md", "nope.md")
	want := map[string]string{
		"MEMORY.md": recall.Returned, "memory/2026-10-22.md": recall.Returned, "memory/2026-11-21.md": recall.NotIndexed,
		"DREAMS.md": recall.NotMemory, "USER.md": recall.BelowMinScore, "nope.md": recall.NoSuchFile,
	}
	got := codes(rep)
	for path, code := range want {
		if got[path] != code {
			t.Errorf("%s: %s, want %s", path, got[path], code)
		}
	}
	for _, e := range rep.Explain {
		if e.Path == "MEMORY.md" && (len(e.Notes) == 0 || !strings.Contains(e.Notes[0], "changed since it was indexed")) {
			t.Errorf("MEMORY.md notes %v: it changed since it was indexed", e.Notes)
		}
		if e.Path == "memory/2026-10-22.md" && !strings.Contains(e.Reason, "decay ×0.494 (30 days old, half-life 30 days)") {
			t.Errorf("the dated note's reason %q lacks its decay", e.Reason)
		}
	}
	// June's router note matches, but is five months old.
	rep = f.replay(t, "router", "memory/2026-06-15.md")
	if e := rep.Explain[0]; e.Code != recall.DecayedBelow || !strings.Contains(e.Reason, "160 days old") {
		t.Errorf("old router note: %s %s", e.Code, e.Reason)
	}
	// Nothing reaches the minimum: memory_search falls back to the keyword
	// matches, the eleven-month-old Christmas plans among them.
	rep = f.replay(t, "holiday plans", "memory/2025-12-24.md")
	if e := rep.Explain[0]; e.Code != recall.Returned || len(e.Notes) == 0 || !strings.Contains(e.Notes[0], "nothing reached the minimum") {
		t.Errorf("old holiday note: %s %s %v", e.Code, e.Reason, e.Notes)
	}
}

func TestExplainMMRAndResultCount(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	one := 1
	req := f.request("coffee")
	req.MaxResults = &one
	req.ExplainAll = true
	rep, err := f.s.Replay(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range rep.Explain {
		seen[e.Code] = true
	}
	if len(rep.Results) != 1 || !seen[recall.Returned] || !(seen[recall.BeyondCount] || seen[recall.DroppedByMMR]) {
		t.Errorf("one result, codes %v: others pass the minimum but are beyond the count", seen)
	}
}

func TestSessionCachesQueriesAndVectors(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	first := f.replay(t, "router VLAN migration")
	second := f.replay(t, "router VLAN migration")
	if f.srv.Requests.Load() != 1 || first.Cached || !second.Cached || len(second.Results) != len(first.Results) {
		t.Errorf("%d embedding requests, cached %v then %v: a query is embedded once a session", f.srv.Requests.Load(), first.Cached, second.Cached)
	}
}

func TestUnavailableProviderOffersLabelledKeywordRanking(t *testing.T) {
	t.Parallel()
	for _, fail := range []string{"hang", "garbage", "500"} {
		f := newFixture(t, fail)
		rep := f.replay(t, "router VLAN migration", "MEMORY.md")
		if rep.Status != StatusUnavailable || len(rep.Results) != 0 || len(rep.Fallback) == 0 || rep.Explain[0].Code != recall.Unavailable {
			t.Errorf("%s: status %s, %d results, %d keyword-only, explain %+v", fail, rep.Status, len(rep.Results), len(rep.Fallback), rep.Explain)
		}
		if strings.Contains(rep.Reason, memsearchtest.APIKey) {
			t.Errorf("%s: the reason shows the API key: %s", fail, rep.Reason)
		}
	}
}

func TestIdentityMismatchReturnsNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	cfg, _ := os.ReadFile(f.config)
	os.WriteFile(f.config, bytes.Replace(cfg, []byte(memsearchtest.Model), []byte("other-model"), 1), 0o644)
	rep := f.replay(t, "router VLAN migration", "MEMORY.md")
	if rep.Status != StatusIdentity || len(rep.Results) != 0 || len(rep.Fallback) == 0 || !strings.Contains(rep.Reason, "index --force") ||
		f.srv.Requests.Load() != 0 {
		t.Errorf("status %s (%s), %d results, %d keyword-only, %d embeddings", rep.Status, rep.Reason, len(rep.Results), len(rep.Fallback), f.srv.Requests.Load())
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	long := strings.Repeat("coffee router ", 100_000/14)
	if rep := f.replay(t, long); rep.Status != StatusOK {
		t.Errorf("a query of %d characters: status %s %s", len(long), rep.Status, rep.Reason)
	}
	cases := []struct {
		name  string
		setup func(a *store.Agent)
		says  string
	}{
		{"no store", func(a *store.Agent) { a.SQLitePath = "" }, "has no SQLite store"},
		{"a directory", func(a *store.Agent) { a.SQLitePath = a.Workspace }, "is not a file"},
		{"not SQLite", func(a *store.Agent) { os.WriteFile(a.SQLitePath, bytes.Repeat([]byte("x"), 8192), 0o600) }, "not a SQLite database"},
		{"cut short", func(a *store.Agent) {
			data, _ := os.ReadFile(a.SQLitePath)
			os.WriteFile(a.SQLitePath, data[:len(data)/3], 0o600)
		}, "damaged"},
	}
	for _, c := range cases {
		g := newFixture(t, "")
		c.setup(&g.agent)
		_, err := g.s.Replay(context.Background(), g.request("coffee"))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.says)
		}
	}
	if _, err := f.s.Replay(context.Background(), f.request("   ")); err == nil {
		t.Error("an empty query must be refused")
	}
}

func TestHalfWrittenIndex(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	f.write(t, `DELETE FROM memory_index_meta; DELETE FROM memory_index_chunks`)
	rep := f.replay(t, "coffee")
	if rep.Status != StatusEmpty || !strings.Contains(rep.Reason, "no chunk") {
		t.Errorf("an index emptied mid-rebuild: %s %s", rep.Status, rep.Reason)
	}
}

// TestReadsWhileOpenClawWrites: a writer holding an open transaction
// (OpenClaw reindexing) neither blocks the replay nor shows it half its
// work, and the replay writes nothing.
func TestReadsWhileOpenClawWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	before := f.replay(t, "router VLAN migration")
	w, err := sql.Open("sqlite", "file:"+f.agent.SQLitePath+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`DELETE FROM memory_index_chunks WHERE path = 'MEMORY.md'`); err != nil {
		t.Fatal(err)
	}
	sum := fileSums(t, f.agent.SQLitePath)
	done := make(chan *Report, 1)
	go func() { rep, _ := f.s.Replay(context.Background(), f.request("router VLAN migration")); done <- rep }()
	select {
	case during := <-done:
		if during == nil || fmt.Sprint(ids(during.Results)) != fmt.Sprint(ids(before.Results)) {
			t.Errorf("during an open write: %v, before it %v", ids(during.Results), ids(before.Results))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the replay waited for the writer")
	}
	if after := fileSums(t, f.agent.SQLitePath); after != sum {
		t.Error("the replay changed the store's files")
	}
	tx.Rollback()
}

func ids(es []*recall.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// fileSums is the store and its -wal's content.
func fileSums(t *testing.T, path string) string {
	var b strings.Builder
	for _, p := range []string{path, path + "-wal"} {
		data, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%d:%x;", len(data), data[:min(len(data), 4096)])
	}
	return b.String()
}

func TestRelated(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	hits, err := f.s.Related(context.Background(), RelatedRequest{Agent: f.agent, Path: "memory/2026-10-22.md", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || hits[0].Path == "memory/2026-10-22.md" || hits[0].Score < hits[1].Score || hits[0].Snippet == "" {
		t.Fatalf("related %+v", hits)
	}
	// The note repeats MEMORY.md's preference nearly word for word.
	if hits[0].Path != "MEMORY.md" {
		t.Errorf("nearest to the coffee note is %s:%d, want MEMORY.md's preference", hits[0].Path, hits[0].StartLine)
	}
	if _, err := f.s.Related(context.Background(), RelatedRequest{Agent: f.agent, Path: "nope.md"}); err == nil {
		t.Error("a file not in the index has no related memories")
	}
}
