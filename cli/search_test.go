package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/search"
)

// searchEnv is the shared demo the search tests read. They build its index
// once, in the cache folder TestMain gives the tests (never the user's),
// and do not run in parallel: each opens the same index in this process,
// and one rebuilds it (--reindex).
func searchEnv(t *testing.T) (state, vault string) {
	t.Helper()
	dir := conformanceDemo(t)
	return filepath.Join(dir, "state"), filepath.Join(dir, "vault")
}

// searchEnvToChange is searchEnv on a copy of the demo, for a test that
// writes into its vault.
func searchEnvToChange(t *testing.T) (state, vault string) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := demotest.Copy(t, conformanceSpec(t))
	return m.StateDir, m.VaultDir
}

// lineOf is the 1-based line of the first line of a file containing s.
func lineOf(t *testing.T, path, s string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", path, s)
	return 0
}

func TestSearchJSONContract(t *testing.T) {
	state, vault := searchEnv(t)
	out, errOut, code := runCLI(t, "search", "--json", "--state-dir", state, "-v", vault, "postgresql", "cut-over")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	requireKeys(t, "search", json.RawMessage(out), "query", "hits")
	var doc struct {
		Query string `json:"query"`
		Hits  []struct {
			Path       string   `json:"path"`
			Line       int      `json:"line"`
			Snippet    string   `json:"snippet"`
			Highlights [][2]int `json:"highlights"`
			Source     string   `json:"source"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Hits []json.RawMessage `json:"hits"`
	}
	json.Unmarshal([]byte(out), &raw)
	for _, h := range raw.Hits {
		requireKeys(t, "hit", h, "path", "line", "score", "snippet", "highlights", "source", "relPath", "kind", "sectionLine")
	}
	if doc.Query != "postgresql cut-over" {
		t.Errorf("query %q", doc.Query)
	}
	// MEMORY.md's cut-over line, at its real line, highlighted.
	memory := filepath.Join(state, "workspace", "MEMORY.md")
	want := lineOf(t, memory, "Cut-over to PostgreSQL")
	found := false
	for _, h := range doc.Hits {
		if h.Path == memory && h.Line == want && h.Source == "workspace/main" {
			found = true
			var words []string
			for _, r := range h.Highlights {
				words = append(words, h.Snippet[r[0]:r[1]])
			}
			if strings.Join(words, ",") != "Cut-over,PostgreSQL" && strings.Join(words, ",") != "Cut,over,PostgreSQL" {
				t.Errorf("highlights %q in %q", words, h.Snippet)
			}
		}
	}
	if !found {
		t.Errorf("no hit at %s:%d in %s", memory, want, out)
	}
}

func TestSearchText(t *testing.T) {
	state, vault := searchEnv(t)
	out, errOut, code := runCLI(t, "search", "--state-dir", state, "-v", vault, "pg_dump", "-backups")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// -backups left MEMORY.md's runbook out; the lesson stays.
	lesson := filepath.Join(vault, "lessons", "never-run-migrations-without-a-backup-snapshot.md")
	wantLine := "lessons/never-run-migrations-without-a-backup-snapshot.md:" + strconv.Itoa(lineOf(t, lesson, "pg_dump"))
	if !strings.HasPrefix(out, wantLine) || strings.Contains(out, "MEMORY.md") {
		t.Errorf("output:\n%s\nwant it to start with %s", out, wantLine)
	}
	// Filters alone, narrowed to an agent.
	out, errOut, code = runCLI(t, "search", "--state-dir", state, "-v", vault, "--agent", "work", "path:memory/", "--limit", "3")
	if code != 0 || !strings.Contains(out, "[work] memory/") || strings.Contains(out, "[main]") {
		t.Errorf("exit %d %s:\n%s", code, errOut, out)
	}
	out, _, code = runCLI(t, "search", "--state-dir", state, "-v", vault, "nothingmatchesthis")
	if code != 0 || out != "No matches.\n" {
		t.Errorf("no match: exit %d %q", code, out)
	}
	// --reindex alone rebuilds.
	out, errOut, code = runCLI(t, "search", "--reindex", "--state-dir", state, "-v", vault)
	if code != 0 || !strings.HasPrefix(out, "Search index rebuilt: ") {
		t.Errorf("reindex: exit %d %s %q", code, errOut, out)
	}
}

func TestSearchErrors(t *testing.T) {
	state, vault := searchEnv(t)
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"search", "--state-dir", state, "-v", vault}, 2, "search needs a query"},
		{[]string{"search", "--state-dir", state, "-v", vault, `"unclosed`}, 2, "bad query: this phrase has no closing"},
		{[]string{"search", "--state-dir", state, "-v", vault, "type:decisoin"}, 2, `unknown observation type "decisoin"`},
		{[]string{"search", "--state-dir", state, "-v", vault, "i>=9"}, 2, "needs a number from 0 to 1"},
		{[]string{"search", "--state-dir", state, "-v", filepath.Join(vault, "nope"), "x"}, 1, "does not exist"},
		{[]string{"search", "--state-dir", state, "-v", vault, "--agent", "nobody", "x"}, 1, `agent "nobody"`},
		{[]string{"search", "--state-dir", state, "-v", vault, "--limit"}, 2, "flag needs an argument"},
	} {
		out, errOut, code := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, code, out, errOut, tt.code, tt.want)
		}
	}
}

func TestSplitSearchArgs(t *testing.T) {
	t.Parallel()
	c, _, err := (&app{}).rootCommand().Find([]string{"search"})
	if err != nil {
		t.Fatal(err)
	}
	c.InitDefaultHelpFlag() // merges the flags every command inherits
	flags, query, err := splitSearchArgs(c.Flags(), []string{"--json", "-draft", "postgres", "--limit", "5", "-v", "V", "--limit=3", "--", "--json"})
	if err != nil || strings.Join(flags, " ") != "--json --limit 5 -v V --limit=3" || strings.Join(query, " ") != "-draft postgres --json" {
		t.Errorf("flags %q, query %q, %v", flags, query, err)
	}
}

// collectLess holds the collector off under a memory limit, and its
// restore puts back what was set (a GOMEMLIMIT below the limit stays).
func TestCollectLessRestores(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(64 << 20))
	restore := collectLess()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent %d while held off, want -1", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("memory limit %d, want the lower one set before, %d", got, 64<<20)
	}
	restore()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("GC percent %d after restore, want 150", got)
	}
	debug.SetMemoryLimit(1 << 40)
	restore = collectLess()
	if got := debug.SetMemoryLimit(-1); got != quietHeapLimit {
		t.Errorf("memory limit %d, want %d", got, quietHeapLimit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit %d after restore, want %d", got, int64(1<<40))
	}
}

// A damaged index (a segment with a bit flipped) is set aside and built
// again by search and search --reindex, with one line on stderr saying
// so; the query is answered.
func TestSearchSetsADamagedIndexAside(t *testing.T) {
	state, vault := searchEnv(t)
	args := []string{"search", "--state-dir", state, "-v", vault, "postgresql"}
	if _, errOut, code := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, reindex := range []bool{false, true} {
		segs, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "clawvault-tui", "search", "*", "store", "*.zap"))
		if len(segs) == 0 {
			t.Fatal("no segment in the cache")
		}
		data, err := os.ReadFile(segs[0])
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x04
		os.WriteFile(segs[0], data, 0o600)
		run := args
		if reindex {
			run = append([]string{"search", "--reindex"}, args[1:]...)
		}
		out, errOut, code := runCLI(t, run...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 0 || !strings.Contains(out, "postgres") && !strings.Contains(out, "PostgreSQL") {
			t.Fatalf("reindex %v: exit %d, stdout %q, stderr %q", reindex, code, out, errOut)
		}
		var notes []string
		for _, l := range lines {
			if strings.Contains(l, "damaged") {
				notes = append(notes, l)
			}
		}
		if len(notes) != 1 || !strings.Contains(notes[0], "fails its checksum") || !strings.Contains(notes[0], "set aside as ") {
			t.Errorf("reindex %v: stderr %q, want one line saying the index was set aside", reindex, errOut)
		}
	}
}

// A search whose index another process holds (here, this one) answers
// from the last complete index, with one line saying what it misses.
func TestSearchAnswersFromAnIndexOthersHold(t *testing.T) {
	state, vault := searchEnvToChange(t)
	args := []string{"search", "--state-dir", state, "-v", vault, "postgresql"}
	if _, errOut, code := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dirs, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "clawvault-tui", "search", "*"))
	var idx string
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			idx = d
		}
	}
	holder, err := search.Open(search.Options{Dir: idx, ReadOnlyUntilWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := os.WriteFile(filepath.Join(vault, "new-note.md"), []byte("# New\nPostgreSQL again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, args...)
	if code != 0 || !strings.Contains(out, "PostgreSQL") || strings.Contains(out, "new-note.md") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "index busy: another clawvault-tui has the search index") || !strings.Contains(errOut, "misses the changes to 1 file\n") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("stderr %q, want one line saying the index misses a change", errOut)
	}
}

// A line over the 64 KiB indexed of a line: the sync warns about it once,
// and its hit says it was cut (lineBytes, and the snippet's end).
func TestSearchSaysALineWasCut(t *testing.T) {
	state, vault := searchEnvToChange(t)
	line := "longlineword " + strings.Repeat("x", 70000)
	if err := os.WriteFile(filepath.Join(vault, "long.md"), []byte("# Long\n"+line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "search", "--json", "--state-dir", state, "-v", vault, "longlineword")
	var doc struct {
		Hits []struct {
			Line, LineBytes int
			Snippet         string
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || len(doc.Hits) != 1 {
		t.Fatalf("exit %d %v: %s %s", code, err, out, errOut)
	}
	h := doc.Hits[0]
	if h.Line != 2 || h.LineBytes != len(line) || !strings.HasSuffix(h.Snippet, "[line cut: 68.4 KiB, of which the first 64 KiB are searched]") {
		t.Errorf("hit %+v", h)
	}
	if want := fmt.Sprintf("long.md:2: the line is %d bytes; only its first 65536 are searched", len(line)); !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want the line named", errOut)
	}
}
