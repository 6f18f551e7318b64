package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"clawvault-tui/store/embedding/embedtest"
	"clawvault-tui/store/memsearch/memsearchtest"
)

var (
	memoryEndpointOnce sync.Once
	memoryEndpoint     = &embedtest.Server{Embedder: embedtest.Embedder{Dims: 64}}
)

// memoryState is a state dir holding the conformance corpus as OpenClaw
// 2026.9.6 indexed it; the memory commands' embedding requests go to a
// local endpoint whatever host the settings name.
func memoryState(t *testing.T) string {
	t.Helper()
	memoryEndpointOnce.Do(func() {
		srv := httptest.NewServer(memoryEndpoint)
		addr := srv.Listener.Addr().String()
		memoryHTTPClient = &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, to string) (net.Conn, error) {
			if "http://"+to+"/v1" == memsearchtest.BaseURL {
				to = addr
			}
			var d net.Dialer
			return d.DialContext(ctx, network, to)
		}}}
	})
	state := t.TempDir()
	if err := memsearchtest.WriteState(state, memsearchtest.BaseURL); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(state, "agents", "main", "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(state, "agents", "main", "agent", "openclaw-agent.sqlite")
	if err := memsearchtest.UnpackStore(filepath.Join("testdata", "conformance", "memsearch", "2026.9.6"), db); err != nil {
		t.Fatal(err)
	}
	return state
}

// TestMemorySearchJSONIsOpenClaws: `memory search --json` prints the
// results OpenClaw printed, member for member in its order, numbers to
// 1e-6, and adds explain.
func TestMemorySearchJSONIsOpenClaws(t *testing.T) {
	t.Parallel()
	state := memoryState(t)
	for _, name := range []string{"router-vlan", "exact-vlan", "coffee-wide"} {
		var q memsearchtest.Query
		for _, c := range memsearchtest.Queries {
			if c.Name == name {
				q = c
			}
		}
		args := []string{"memory", "search", "--state-dir", state, "--json", "--now", "2026-11-21T12:00:00Z", q.Text}
		if q.MaxResults > 0 {
			args = append(args, "--max-results", itoaTest(q.MaxResults), "--min-score", "0.05")
		}
		out, errOut, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		golden, err := os.ReadFile(filepath.Join("testdata", "conformance", "memsearch", "2026.9.6", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var ours, theirs struct {
			Results []json.RawMessage
			Explain json.RawMessage
		}
		if err := json.Unmarshal([]byte(out), &ours); err != nil || json.Unmarshal(golden, &theirs) != nil || ours.Explain == nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		if len(ours.Results) != len(theirs.Results) || len(ours.Results) == 0 {
			t.Fatalf("%s: %d results, OpenClaw %d", name, len(ours.Results), len(theirs.Results))
		}
		for i := range theirs.Results {
			if diff := sameJSON(ours.Results[i], theirs.Results[i]); diff != "" {
				t.Errorf("%s result %d: %s", name, i+1, diff)
			}
		}
	}
}

func itoaTest(n int) string { b, _ := json.Marshal(n); return string(b) }

// sameJSON compares two results: the same members in the same order, the
// same strings, numbers within 1e-6.
func sameJSON(a, b json.RawMessage) string {
	ka, kb := orderedKeys(a), orderedKeys(b)
	if strings.Join(ka, ",") != strings.Join(kb, ",") {
		return "members " + strings.Join(ka, ",") + ", OpenClaw's " + strings.Join(kb, ",")
	}
	var va, vb map[string]any
	json.Unmarshal(a, &va)
	json.Unmarshal(b, &vb)
	for k, x := range vb {
		switch xv := x.(type) {
		case float64:
			if y, ok := va[k].(float64); !ok || math.Abs(y-xv) > 1e-6 {
				return k + " differs"
			}
		default:
			if ja, jb := mustJSON(va[k]), mustJSON(x); ja != jb {
				return k + ": " + ja + ", OpenClaw " + jb
			}
		}
	}
	return ""
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func orderedKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return keys
}

func TestMemorySearchExplainsAndNeverPrintsTheKey(t *testing.T) {
	t.Parallel()
	state := memoryState(t)
	out, errOut, code := runCLI(t, "memory", "search", "--state-dir", state, "--now", "2026-11-21T12:00:00Z",
		"--explain", "memory/2025-12-24.md", "--explain", "DREAMS.md", "holiday plans")
	if code != 0 || !strings.Contains(out, "memory/2025-12-24.md: returned at rank 2 of 2") || !strings.Contains(out, "DREAMS.md: not a file OpenClaw indexes") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, memsearchtest.APIKey) {
		t.Error("the API key was printed")
	}
	cfg := filepath.Join(state, "openclaw.json")
	data, _ := os.ReadFile(cfg)
	// An endpoint that repeats the Authorization header in its error.
	echo := httptest.NewServer(&embedtest.Server{Fail: "echo"})
	defer echo.Close()
	os.WriteFile(cfg, bytes.Replace(data, []byte(memsearchtest.BaseURL), []byte(echo.URL+"/v1"), 1), 0o644)
	for _, args := range [][]string{{"--json"}, {}} {
		out, errOut, code = runCLI(t, append([]string{"memory", "status", "--state-dir", state}, args...)...)
		if strings.Contains(out+errOut, memsearchtest.APIKey) {
			t.Errorf("the API key was printed:\n%s%s", out, errOut)
		}
		if code != 0 || !strings.Contains(out, "HTTP 401: invalid credentials: [redacted]") {
			t.Errorf("exit %d: %s %s", code, out, errOut)
		}
	}
}

func TestMemoryBadUsage(t *testing.T) {
	t.Parallel()
	state := memoryState(t)
	cases := []struct {
		args []string
		code int
		says string
	}{
		{[]string{"memory", "search", "--state-dir", state}, 2, "needs a query"},
		{[]string{"memory", "search", "--state-dir", state, "--now", "yesterday", "x"}, 2, "is not a time"},
		{[]string{"memory", "search", "--state-dir", state, "--max-results", "0", "x"}, 2, "positive integer"},
		{[]string{"memory", "search", "--state-dir", state, "--agent", "nobody", "x"}, 1, `agent "nobody" has no folder`},
		{[]string{"memory", "status", "--state-dir", state, "--agent", "nobody"}, 1, `agent "nobody" has no folder`},
		{[]string{"memory", "search", "--state-dir", filepath.Join(state, "missing"), "x"}, 1, "does not exist"},
	}
	for _, c := range cases {
		_, errOut, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.says) {
			t.Errorf("%v: exit %d %q, want %d saying %q", c.args, code, errOut, c.code, c.says)
		}
	}
}

func TestMemoryStatus(t *testing.T) {
	t.Parallel()
	state := memoryState(t)
	os.WriteFile(filepath.Join(state, "workspace", "memory", "2026-11-21.md"), []byte("new\n"), 0o644)
	orphan := filepath.Join(state, "agents", "main", "agent", "openclaw-agent.sqlite.memory-reindex-8841.sqlite")
	os.WriteFile(orphan, make([]byte, 4096), 0o600)
	out, errOut, code := runCLI(t, "memory", "status", "--state-dir", state, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Agents []struct {
			Agent, VectorState string
			Files, Chunks      int
			Identity           map[string]any
			NeverIndexed       []string
			Provider           map[string]any
			ReindexBytes       int64
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Agents) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	a := doc.Agents[0]
	if a.Files != 15 || a.Chunks == 0 || a.Identity["status"] != "valid" || a.VectorState != "complete" ||
		strings.Join(a.NeverIndexed, ",") != "memory/2026-11-21.md" || a.Provider["reachable"] != true || a.ReindexBytes != 4096 {
		t.Errorf("status %+v", a)
	}
	if strings.Contains(out, memsearchtest.APIKey) {
		t.Error("the API key was printed")
	}
	text, _, _ := runCLI(t, "memory", "status", "--state-dir", state, "--no-probe")
	if !strings.Contains(text, "1 never indexed (memory/2026-11-21.md)") || !strings.Contains(text, "reindex      1 temp files") {
		t.Errorf("text status:\n%s", text)
	}
}
