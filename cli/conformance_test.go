package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/transcript"
)

// The conformance tests compare clawvault-tui with the real reference tools
// (ClawVault 3.5.2 and pi's SessionManager, from npm) on the same files.
// `make test` reads their outputs from the goldens in testdata/conformance;
// `make conformance` regenerates them live and points CONFORMANCE_DIR there.

func conformanceDir() string {
	if d := os.Getenv("CONFORMANCE_DIR"); d != "" {
		return d
	}
	return filepath.Join("testdata", "conformance")
}

type conformanceMeta struct {
	Seed       int64  `json:"seed"`
	Now        string `json:"now"`
	PathLength int    `json:"pathLength"`
}

// conformanceSpec is the demo the goldens were made on (meta.json): the
// same seed and clock, at a path of the same length (transcript headers
// carry absolute paths, so sizes depend on the path's length).
func conformanceSpec(t *testing.T) demotest.Spec {
	t.Helper()
	return demotest.Spec{Options: demo.ScaleOptions(1, readMeta(t).Seed, conformanceNow(t)), PathLength: readMeta(t).PathLength}
}

func readMeta(t *testing.T) conformanceMeta {
	t.Helper()
	var meta conformanceMeta
	data, err := os.ReadFile(filepath.Join(conformanceDir(), "meta.json"))
	if err == nil {
		err = json.Unmarshal(data, &meta)
	}
	if err != nil {
		t.Fatalf("the conformance goldens' meta.json: %v", err)
	}
	return meta
}

func conformanceNow(t *testing.T) time.Time {
	t.Helper()
	now, err := time.Parse(time.RFC3339, readMeta(t).Now)
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// conformanceDemo is the folder of the conformance demo, shared by the
// tests that only read it (demoCopy gives one to change).
func conformanceDemo(t *testing.T) string {
	t.Helper()
	return filepath.Dir(demotest.Shared(t, conformanceSpec(t)).StateDir)
}

func TestMain(m *testing.M) {
	// status keeps the sizes of SQLite-era sessions in the cache folder:
	// never the user's, in tests. Go's build cache stays where it is (it
	// defaults to a folder of the same cache home): the tests that build
	// the binary would otherwise compile everything from scratch.
	if os.Getenv("GOCACHE") == "" {
		if home, err := os.UserCacheDir(); err == nil {
			os.Setenv("GOCACHE", filepath.Join(home, "go-build"))
		}
	}
	home, err := os.MkdirTemp("", "cvtui-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	isolateEnvironment(home)
	code := demotest.Main(m)
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.RemoveAll(home)
	os.Exit(code)
}

// isolateEnvironment gives the tests folders of their own for what the
// commands keep (config, caches, backups) and clears the variables that
// would point them at the user's OpenClaw or vault, once for all: a test
// that changes the environment cannot run in parallel with others
// (t.Setenv), so the tests that only need it clean need not.
func isolateEnvironment(home string) {
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"} {
		os.Setenv(v, filepath.Join(home, strings.ToLower(strings.TrimPrefix(v, "XDG_"))))
	}
	for _, v := range []string{"OPENCLAW_AGENT_ID", "OPENCLAW_STATE_DIR", "OPENCLAW_HOME", "OPENCLAW_CONFIG_PATH", "CLAWVAULT_PATH", "VISUAL", "EDITOR"} {
		os.Unsetenv(v)
	}
}

// TestConformanceClawVaultDryRun: `observe --dry-run` prints what
// `clawvault observe --active --dry-run` prints on the same folders.
func TestConformanceClawVaultDryRun(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	state, vault := filepath.Join(dir, "state"), filepath.Join(dir, "vault")
	cases := map[string][]string{
		"main":         {"--state-dir", state, "--agent", "main"},
		"work":         {"--state-dir", state, "--agent", "work"},
		"ops":          {"--state-dir", state, "--agent", "ops"},
		"min-new-1":    {"--state-dir", state, "--agent", "main", "--min-new", "1"},
		"sessions-dir": {"--sessions-dir", filepath.Join(state, "agents", "main", "sessions")},
	}
	for name, flags := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(conformanceDir(), "clawvault", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			args := append([]string{"observe", "--dry-run", "-v", vault}, flags...)
			if code := Run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			// ClawVault's lines, byte for byte; then, for an agent with a
			// SQLite-era store (which ClawVault cannot read), our block
			// of what a sweep of ours takes from it.
			got, rest := stdout.String(), ""
			if i := strings.Index(got, "SQLite-era store ("); i >= 0 {
				got, rest = got[:i], got[i:]
			}
			if got != string(want) || name == "ops" && rest == "" {
				t.Errorf("clawvault-tui printed:\n%s%s\nClawVault 3.5.2 printed:\n%s", got, rest, want)
			}
		})
	}
}

// TestConformanceObservationLines: model.ParseObservationLine reads every
// line of conformance/observation-lines.jsonl (both syntaxes, every type
// keyword, JavaScript's whitespace and line terminators) exactly as
// ClawVault 3.5.2's parseObservationLine does.
func TestConformanceObservationLines(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(conformanceDir(), "clawvault", "observation-lines.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type observation struct {
		Type       string  `json:"type"`
		Confidence float64 `json:"confidence"`
		Importance float64 `json:"importance"`
		Content    string  `json:"content"`
		Format     string  `json:"format"`
		Priority   string  `json:"priority"`
	}
	lines := 0
	for raw := range bytes.Lines(data) {
		var rec struct {
			Line        string       `json:"line"`
			Observation *observation `json:"observation"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		lines++
		o, ok := model.ParseObservationLine(jscompat.JSTrim(rec.Line), "2026-01-01")
		if !ok {
			if rec.Observation != nil {
				t.Errorf("%q: ClawVault reads %+v, we read nothing", rec.Line, *rec.Observation)
			}
			continue
		}
		got := observation{o.Type, o.Confidence, o.Importance, o.Content, o.Format.String(), o.Priority}
		if rec.Observation == nil {
			t.Errorf("%q: ClawVault reads nothing, we read %+v", rec.Line, got)
		} else if got != *rec.Observation {
			t.Errorf("%q:\n got %+v\nwant %+v", rec.Line, got, *rec.Observation)
		}
	}
	if lines < 100 {
		t.Fatalf("only %d lines in the golden file", lines)
	}
}

// piTree is one line of pi-tree.jsonl: what pi's SessionManager made of a
// file, with entries as positions in getEntries().
type piTree struct {
	File            string   `json:"file"`
	Entries         int      `json:"entries"`
	Leaf            *int     `json:"leaf"`
	ActivePath      []int    `json:"activePath"`
	Roots           []int    `json:"roots"`
	BranchPoints    []int    `json:"branchPoints"`
	ContextMessages int      `json:"contextMessages"`
	IDs             []string `json:"ids"`
}

// TestConformancePiTree: `tree` agrees with pi's SessionManager on leaf,
// active path, roots, branch points, entry count and the number of
// messages buildSessionContext gives, on files pi wrote itself, on the
// spec's examples and on every transcript of the demo.
func TestConformancePiTree(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join(conformanceDir(), "pi-tree.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		var want piTree
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		n++
		path := filepath.Join(conformanceDir(), want.File)
		if rest, ok := strings.CutPrefix(want.File, "demo/"); ok {
			path = filepath.Join(conformanceDemo(t), rest)
		}
		t.Run(want.File, func(t *testing.T) {
			ix, err := transcript.NewCache().Open(context.Background(), path, transcript.Options{})
			if err != nil {
				t.Fatal(err)
			}
			comparePiTree(t, ix, want)
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("only %d files in the golden", n)
	}
}

func comparePiTree(t *testing.T, ix *transcript.Index, want piTree) {
	tr := ix.Tree
	node := map[int32]int{} // entry position → position in pi's getEntries()
	var ids []string
	if tr.HasHeader {
		for i, e := range ix.Entries {
			if e.Type != model.TypeSession {
				node[int32(i)] = len(ids)
				ids = append(ids, ix.Names.String(e.ID))
			}
		}
	}
	nodes := func(idx []int32) []int {
		out := []int{}
		for _, i := range idx {
			out = append(out, node[i])
		}
		return out
	}
	if tr.Nodes != want.Entries {
		t.Errorf("entries = %d, pi has %d", tr.Nodes, want.Entries)
	}
	var leaf *int
	if tr.Leaf >= 0 {
		l := node[tr.Leaf]
		leaf = &l
	}
	if (leaf == nil) != (want.Leaf == nil) || (leaf != nil && *leaf != *want.Leaf) {
		t.Errorf("leaf = %v, pi has %v", deref(leaf), deref(want.Leaf))
	}
	for _, c := range []struct {
		what      string
		got, want []int
	}{
		{"active path", nodes(tr.ActivePath), want.ActivePath},
		{"roots", nodes(tr.Roots), want.Roots},
		{"branch points", nodes(tr.BranchPoints), want.BranchPoints},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %v, pi has %v", c.what, c.got, c.want)
		}
	}
	if len(tr.Context) != want.ContextMessages {
		t.Errorf("model context = %d messages, pi's buildSessionContext gives %d", len(tr.Context), want.ContextMessages)
	}
	// pi invents ids for v1 files; every other file keeps its own.
	if ix.Version >= 2 && !slices.Equal(ids, want.IDs) && len(ids)+len(want.IDs) > 0 {
		t.Errorf("ids differ from pi's")
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
