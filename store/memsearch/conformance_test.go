package memsearch

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/embedding/embedtest"
	"clawvault-tui/store/memsearch/memsearchtest"
)

// conformanceDir holds what make conformance recorded with the real
// OpenClaw (conformance/openclaw-memsearch.sh): per version, the store it
// indexed and its answer to each query.
func conformanceDir() string {
	if d := os.Getenv("CONFORMANCE_DIR"); d != "" {
		return filepath.Join(d, "memsearch")
	}
	return filepath.Join("..", "..", "cli", "testdata", "conformance", "memsearch")
}

// goldenResult is one result of `openclaw memory search --json`.
type goldenResult struct {
	Path        string
	StartLine   int
	EndLine     int
	Score       float64
	VectorScore *float64
	TextScore   *float64
	Snippet     string
	Source      string
	Importance  *float64
}

// embedClient sends every request to srv, whatever host the request
// names: the stores' identity holds the endpoint OpenClaw indexed with.
func embedClient(srv *httptest.Server) *http.Client {
	addr := srv.Listener.Addr().String()
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}}
}

// conformanceState unpacks a recorded store into a state dir with the
// corpus's workspace and settings.
func conformanceState(t *testing.T, dir string) store.Agent {
	t.Helper()
	state := t.TempDir()
	if err := memsearchtest.WriteState(state, memsearchtest.BaseURL); err != nil {
		t.Fatal(err)
	}
	agentDir := filepath.Join(state, "agents", "main")
	db := filepath.Join(agentDir, "agent", "openclaw-agent.sqlite")
	if err := memsearchtest.UnpackStore(dir, db); err != nil {
		t.Fatal(err)
	}
	return store.Agent{ID: "main", Dir: agentDir, Workspace: filepath.Join(state, "workspace"), SQLitePath: db}
}

func TestConformance(t *testing.T) {
	for _, version := range []string{"2026.9.6", "2026.9.5"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(conformanceDir(), version)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("no recorded answers of OpenClaw %s (%v): run conformance/run.sh --update", version, err)
			}
			agent := conformanceState(t, dir)
			srv := httptest.NewServer(&embedtest.Server{Embedder: embedtest.Embedder{Dims: 64}})
			defer srv.Close()
			s := &Session{HTTP: embedClient(srv)}
			n := 0
			for _, q := range recordedQueries(t, dir) {
				n++
				checkQuery(t, s, agent, dir, q)
			}
			if n < 20 {
				t.Errorf("only %d recorded queries", n)
			}
		})
	}
}

func recordedQueries(t *testing.T, dir string) []memsearchtest.Query {
	f, err := os.Open(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []memsearchtest.Query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q memsearchtest.Query
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}

func checkQuery(t *testing.T, s *Session, agent store.Agent, dir string, q memsearchtest.Query) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, q.Name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct{ Results []goldenResult }
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatalf("%s: %v", q.Name, err)
	}
	req := Request{Agent: agent, ConfigPath: filepath.Join(filepath.Dir(filepath.Dir(agent.Dir)), "openclaw.json"),
		Getenv: func(string) string { return "" }, Query: q.Text, Now: memsearchtest.Now}
	if q.MaxResults > 0 {
		req.MaxResults = &q.MaxResults
	}
	if q.MinScore >= 0 {
		req.MinScore = &q.MinScore
	}
	rep, err := s.Replay(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", q.Name, err)
	}
	if rep.Status != StatusOK {
		t.Fatalf("%s: status %s (%s), OpenClaw answered", q.Name, rep.Status, rep.Reason)
	}
	if diff := compareResults(rep.Results, golden.Results); diff != "" {
		t.Errorf("%s (%q): %s\nours:\n%s", q.Name, q.Text, diff, describe(rep.Results))
	}
}

// compareResults wants the same results in the same order, scores equal
// to 1e-6, snippets and sources equal.
func compareResults(ours []*recall.Entry, theirs []goldenResult) string {
	if len(ours) != len(theirs) {
		return fmt.Sprintf("%d results, OpenClaw returned %d:\n%s", len(ours), len(theirs), describeGolden(theirs))
	}
	for i, g := range theirs {
		o := ours[i]
		switch {
		case o.Path != g.Path || o.StartLine != g.StartLine || o.EndLine != g.EndLine:
			return fmt.Sprintf("result %d is %s:%d-%d, OpenClaw's is %s:%d-%d", i+1, o.Path, o.StartLine, o.EndLine, g.Path, g.StartLine, g.EndLine)
		case math.Abs(o.Score-g.Score) > 1e-6:
			return fmt.Sprintf("result %d (%s) scores %v, OpenClaw %v", i+1, g.Path, o.Score, g.Score)
		case g.VectorScore != nil && math.Abs(o.VectorScore-*g.VectorScore) > 1e-6:
			return fmt.Sprintf("result %d (%s) vector score %v, OpenClaw %v", i+1, g.Path, o.VectorScore, *g.VectorScore)
		case g.TextScore != nil && math.Abs(o.TextScore-*g.TextScore) > 1e-6:
			return fmt.Sprintf("result %d (%s) text score %v, OpenClaw %v", i+1, g.Path, o.TextScore, *g.TextScore)
		case o.Snippet != g.Snippet || o.Source != g.Source:
			return fmt.Sprintf("result %d (%s) snippet or source differ: %q/%s, OpenClaw %q/%s", i+1, g.Path, o.Snippet, o.Source, g.Snippet, g.Source)
		}
	}
	return ""
}

func describe(es []*recall.Entry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "  %s:%d-%d score %v vector %v text %v\n", e.Path, e.StartLine, e.EndLine, e.Score, e.VectorScore, e.TextScore)
	}
	return b.String()
}

func describeGolden(gs []goldenResult) string {
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "  %s:%d-%d score %v\n", g.Path, g.StartLine, g.EndLine, g.Score)
	}
	return b.String()
}
