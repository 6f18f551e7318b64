package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/store"
	"clawvault-tui/store/demo/demotest"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// keysOf lists the keys of a JSON object.
func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

func requireKeys(t *testing.T, what string, raw json.RawMessage, want ...string) {
	t.Helper()
	keys := keysOf(t, raw)
	for _, k := range want {
		if !slices.Contains(keys, k) {
			t.Errorf("%s lacks %q (has %v)", what, k, keys)
		}
	}
}

// The JSON shapes of docs/ARCHITECTURE.md are a contract: these field names must stay.
func TestStatusJSONContract(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, "status", "--json", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Sessions []json.RawMessage `json:"sessions"`
		Agents   []json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	requireKeys(t, "status", json.RawMessage(out), "stateDir", "vault", "agents", "sessions")
	if len(doc.Sessions) < 40 || len(doc.Agents) != 3 {
		t.Fatalf("%d sessions, %d agents", len(doc.Sessions), len(doc.Agents))
	}
	for _, s := range doc.Sessions {
		requireKeys(t, "session", s, "agent", "sessionKey", "sessionId", "file", "source", "sizeBytes", "cursorOffset",
			"lastObservedAt", "startOffset", "pendingBytes", "thresholdBytes", "candidate", "stale", "diagnosis")
	}
	// Every code the demo is built to show shows up.
	for _, code := range []string{"no-cursor", "below-threshold", "candidate", "overdue", "cursor-past-eof", "stale",
		"not-discovered", "reset-archive", "sqlite-store", "missing-file", "flush-skipped", "cursor-invalid", "scan-only", "checkpoint-copy"} {
		if !strings.Contains(out, `"code": "`+code+`"`) {
			t.Errorf("no session is diagnosed %s", code)
		}
	}
}

func TestStatusDeepFindsContentFacts(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, "status", "--deep", "--json", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, code := range []string{"partial-tail", "no-messages"} {
		if !strings.Contains(out, `"code": "`+code+`"`) {
			t.Errorf("--deep finds no %s", code)
		}
	}
}

func TestTreeJSONContract(t *testing.T) {
	t.Parallel()
	out, errOut, code := runCLI(t, "tree", filepath.Join("..", "store", "transcript", "testdata", "spec-branch.jsonl"), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	requireKeys(t, "tree", json.RawMessage(out), "file", "header", "entries", "leafId", "roots", "branchPoints",
		"activePath", "compactions", "contextEntryIds", "malformedLines")
	var doc treeDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Entries != 9 || *doc.LeafID != "3456abcd" || !slices.Equal(doc.BranchPoints, []string{"33cc44dd"}) ||
		!strings.Contains(string(doc.Header), `"5d2f8e61-7a4b-4c39-b0e2-91f6d3a7c845"`) {
		t.Errorf("tree = %+v", doc)
	}
}

func TestTreeOfAFileWithoutHeader(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(path, []byte(`{"type":"message","id":"a","parentId":null}`+"\n"), 0o644)
	out, _, code := runCLI(t, "tree", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc map[string]any
	json.Unmarshal([]byte(out), &doc)
	if doc["header"] != nil || doc["entries"].(float64) != 0 || len(doc["roots"].([]any)) != 0 || doc["leafId"] != nil {
		t.Errorf("a file with no header gives empty lists, not an error: %v", doc)
	}
}

func TestTreeBySessionID(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	flags := []string{"--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault")}
	out, errOut, code := runCLI(t, append([]string{"tree", "agent:main:direct:zoe"}, flags...)...)
	if code != 0 || !strings.Contains(out, "Branch points:") || strings.Contains(out, "Branch points: none") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, append([]string{"tree", "no-such-session"}, flags...)...)
	if code == 0 || !strings.Contains(errOut, `no file and no session "no-such-session"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestObserveDryRunJSON(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, "observe", "--dry-run", "--json", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	requireKeys(t, "observe", json.RawMessage(out), "dryRun", "checked", "candidates", "observed", "errors")
	var doc struct {
		Candidates []json.RawMessage `json:"candidates"`
	}
	json.Unmarshal([]byte(out), &doc)
	if len(doc.Candidates) == 0 {
		t.Fatal("no candidates")
	}
	requireKeys(t, "candidate", doc.Candidates[0], "sessionKey", "sessionId", "source", "startOffset", "fileSize", "newBytes", "thresholdBytes")
}

// Errors go to stderr, in one sentence a user can act on, with a non-zero exit.
func TestErrors(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	agents := t.TempDir() // a state dir with one agent and no sessions
	os.MkdirAll(filepath.Join(agents, "agents", "main", "sessions"), 0o755)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"status", "--state-dir", filepath.Join(empty, "nope")}, 1, "does not exist"},
		{[]string{"status", "--state-dir", empty}, 1, "has no agents"},
		{[]string{"tree", filepath.Join(empty, "missing.jsonl"), "--state-dir", filepath.Join(empty, "nope")}, 1, "is not a file"},
		{[]string{"tree"}, 2, "one FILE or SESSION"},
		{[]string{"status", "--bogus"}, 2, "flag provided but not defined"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"observe", "--state-dir", empty, "--max-sessions", "-1"}, 2, "--max-sessions"},
		{[]string{"observe", "--state-dir", empty, "--compressor", "gpt"}, 2, "use rules or llm"},
		{[]string{"observe", "--state-dir", empty, "--watch", "30s", "--dry-run"}, 2, "--watch"},
		{[]string{"demo"}, 2, "one DIR"},
		{[]string{"--theme", "solarized"}, 2, `--theme "solarized" is not a theme: use auto, dark, light, ansi, none`},
		{[]string{"demo", empty, "--now", "yesterday"}, 2, "RFC 3339"},
		{[]string{"observe", "--dry-run", "--sessions-dir", empty, "-v", empty}, 1, "no .clawvault.json"},
		// A vault path that names nothing: status and the TUI stop, as
		// search and observe do, and --demo-if-none opens no demo for it.
		{[]string{"status", "--state-dir", agents, "-v", filepath.Join(empty, "nope")}, 1, "the vault " + filepath.Join(empty, "nope") + " (from --vault) does not exist"},
		{[]string{"status", "--state-dir", agents, "-v", empty}, 1, "(from --vault) is not a ClawVault vault"},
		{[]string{"--state-dir", agents, "-v", filepath.Join(empty, "nope")}, 1, "(from --vault) does not exist"},
		{[]string{"--demo-if-none", "--state-dir", agents, "-v", filepath.Join(empty, "nope")}, 1, "(from --vault) does not exist"},
	}
	for _, tt := range tests {
		out, errOut, code := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
		if out != "" {
			t.Errorf("%v: an error printed to stdout: %q", tt.args, out)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
			t.Errorf("%v: more than a sentence: %q", tt.args, errOut)
		}
	}
}

func TestDemoRefusesANonEmptyFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644)
	_, errOut, code := runCLI(t, "demo", dir)
	if code == 0 || !strings.Contains(errOut, "not empty") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(data) != "mine" {
		t.Error("the demo touched a user's file")
	}
}

// The file `config` prints loads without error: it is meant to be saved as is.
func TestConfigPrintsALoadableFile(t *testing.T) {
	t.Parallel()
	out, errOut, code := runCLI(t, "config")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte(out), 0o644)
	if _, err := store.LoadConfig(path); err != nil {
		t.Errorf("the printed config does not load: %v\n%s", err, out)
	}
	for _, want := range []string{"theme = \"auto\"", "editor_line = \"\"", "{file}", "# quit = [\"q\", \"ctrl+c\"]", "# promote = [\"p\"]", "[keys]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the config lacks %q", want)
		}
	}
}

// demoCopy is a private copy of the conformance demo, for commands that write.
func demoCopy(t *testing.T) (state, vault string) {
	t.Helper()
	m := demotest.Copy(t, conformanceSpec(t))
	return m.StateDir, m.VaultDir
}

func TestObserveSweepJSONContract(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	out, errOut, code := runCLI(t, "observe", "--json", "--max-sessions", "3", "--agent", "main", "--state-dir", state, "-v", vault, "--now", "2026-11-21T12:00:00Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	requireKeys(t, "observe", json.RawMessage(out), "dryRun", "checked", "candidates", "observed", "errors",
		"compressor", "fallbacks", "durationMs", "bytesRead", "observationsByType", "skipped", "failed")
	var doc struct {
		DryRun   bool              `json:"dryRun"`
		Observed []json.RawMessage `json:"observed"`
		Skipped  []json.RawMessage `json:"skipped"`
	}
	json.Unmarshal([]byte(out), &doc)
	if doc.DryRun || len(doc.Observed) != 3 || len(doc.Skipped) != 4 {
		t.Fatalf("observed %d, skipped %d", len(doc.Observed), len(doc.Skipped))
	}
	for _, o := range doc.Observed {
		requireKeys(t, "observed session", o, "sessionId", "nextOffset", "observations", "sessionKey", "bytesRead", "byType", "routed", "cursor")
	}
	// The largest first: the 14 MiB main session.
	if !strings.Contains(string(doc.Observed[0]), `"sessionKey": "agent:main:main"`) {
		t.Errorf("first observed: %s", doc.Observed[0])
	}
}

func TestObserveSweepText(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	out, errOut, code := runCLI(t, "observe", "--agent", "work", "--state-dir", state, "-v", vault)
	if code != 0 || !strings.HasPrefix(out, "Observed ") || !strings.Contains(out, "- agent:work:main [main]") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	out, _, _ = runCLI(t, "observe", "--agent", "work", "--state-dir", state, "-v", vault)
	if !strings.HasPrefix(out, "No active sessions crossed threshold") {
		t.Errorf("a second sweep: %s", out)
	}
}

func TestObserveBusy(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	unlock, err := store.LockVault(vault, store.CurrentOwner("clawvault-tui observe --watch 5m", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, errOut, code := runCLI(t, "observe", "--state-dir", state, "-v", vault)
	if code != 75 || !strings.Contains(errOut, "is busy") || !strings.Contains(errOut, "--watch 5m") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestObserveDryRunIncludeResets(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, "observe", "--dry-run", "--include-resets", "--agent", "main", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	if code != 0 || !strings.Contains(out, "Reset archives (--include-resets): 1 would be observed") ||
		!strings.Contains(out, ".jsonl.reset.") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	want, _ := os.ReadFile(filepath.Join(conformanceDir(), "clawvault", "main.txt"))
	if !strings.HasPrefix(out, string(want)) {
		t.Error("--include-resets changed ClawVault's own lines")
	}
}

// tree --draw draws the tree as the Transcript screen does: branches
// indented as pi's /tree, ● on the active path, compactions as dividers.
func TestTreeDraw(t *testing.T) {
	t.Parallel()
	testdata := filepath.Join("..", "store", "transcript", "testdata")
	out, errOut, code := runCLI(t, "tree", filepath.Join(testdata, "spec-branch.jsonl"), "--draw")
	want := `spec-branch.jsonl · Error-handling post  9 entries · 0 compactions · 1 branch point
● 10:00 user  Outline a post about error handling.
● 10:00 asst  1. Why errors matter 2. Patterns 3. Pitfalls
├─· 10:01 user  Use Go examples.
│ · 10:01 asst  Section 2 in Go: wrap with fmt.Errorf("load: %w", err). [go-draft]
│ · 10:01 label label "go-draft" on 77aa88bb
└─● 10:02 bsum  branch summary: ## Goal
  ● 10:02 user  Use Rust examples instead.
  ● 10:02 asst  Section 2 in Rust: return Result<T, E> and propagate with ?.
  ● 10:03 name  name: Error-handling post
`
	if code != 0 || out != want {
		t.Errorf("exit %d: %s\n%s", code, errOut, out)
	}
	out, _, _ = runCLI(t, "tree", filepath.Join(testdata, "spec-linear-compaction.jsonl"), "--draw")
	lines := strings.Split(out, "\n")
	if len(lines) != 13 || !strings.HasPrefix(lines[9], "── compaction · 172,336 tokens before · keeps from 6c0a7e93 ───") ||
		ansi.StringWidth(lines[9]) != 160 {
		t.Errorf("the compaction is not a divider:\n%s", out)
	}
	if _, errOut, code := runCLI(t, "tree", "x", "--draw", "--json"); code != 2 || !strings.Contains(errOut, "pass one of them") {
		t.Errorf("--draw --json: exit %d, %s", code, errOut)
	}
}
