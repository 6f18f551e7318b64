package search

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

// testEnv is a vault, an agent's workspace and its sessions folder in a
// temp folder, and an index over them in another.
type testEnv struct {
	t    *testing.T
	root string
	opt  Options
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	root := t.TempDir()
	e := &testEnv{t: t, root: root}
	for _, d := range []string{"vault", "workspace/memory", "sessions", "cache"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.write("vault/.clawvault.json", "{}")
	e.opt = Options{
		Dir: filepath.Join(root, "cache", "idx"),
		Roots: []Root{
			{ID: "vault", Kind: VaultRoot, Dir: filepath.Join(root, "vault")},
			{ID: "workspace/main", Kind: WorkspaceRoot, Agent: "main", Dir: filepath.Join(root, "workspace")},
			{ID: "sessions/main", Kind: SessionsRoot, Agent: "main", Dir: filepath.Join(root, "sessions")},
		},
		BusyTimeout: 200 * time.Millisecond,
	}
	return e
}

func (e *testEnv) path(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }

func (e *testEnv) write(rel, content string) string {
	e.t.Helper()
	p := e.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// open opens the index and syncs it.
func (e *testEnv) open() *Index {
	e.t.Helper()
	ix, err := Open(e.opt)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		e.t.Fatal(err)
	}
	return ix
}

func find(t *testing.T, ix *Index, q string) []Hit {
	t.Helper()
	res, err := ix.Search(context.Background(), q, SearchOptions{Limit: 50})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return res.Hits
}

// where lists hits as rel:line.
func where(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s:%d", h.Rel, h.Line))
	}
	return out
}

// highlighted lists the highlighted text of a hit's snippet.
func highlighted(h Hit) []string {
	var out []string
	for _, s := range h.Highlights {
		out = append(out, h.Snippet[s.Start:s.End])
	}
	return out
}

const notes = "---\n" + // 1
	"title: Alpha frontmatterword\n" + // 2
	"---\n" + // 3
	"# Heading headingword\n" + // 4
	"\n" + // 5
	"- list item listword\n" + // 6
	"- another\n" + // 7
	"\n" + // 8
	"```bash\n" + // 9
	"echo fenceword\n" + // 10
	"# not a heading codecomment\n" + // 11
	"```\n" + // 12
	"Zoë Müller wrote naïveword in the café\n" + // 13
	"  indented tea.KeyPressMsg handler\n" // 14

func TestMain(m *testing.M) {
	code := demotest.Main(m)
	removeSharedDemo()
	if pristine.dir != "" {
		os.RemoveAll(pristine.dir)
	}
	os.Exit(code)
}

func TestOptionsFor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	m := demotest.Shared(t, demotest.Spec{Options: demo.ScaleOptions(1, 1, time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))})
	env := store.Env{Getenv: func(k string) string { return map[string]string{"XDG_CACHE_HOME": filepath.Join(dir, "xdg")}[k] }, Home: dir, Cwd: dir}
	ws, err := store.Locate(env, store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		t.Fatal(err)
	}
	opt, err := OptionsFor(ws, store.SearchConfig{Transcripts: true}, env)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range opt.Roots {
		ids = append(ids, r.ID)
	}
	want := []string{"vault", "workspace/main", "sessions/main", "workspace/ops", "sessions/ops", "sqlite/ops", "workspace/work", "sessions/work"}
	if !slices.Equal(ids, want) || !strings.HasPrefix(opt.Dir, filepath.Join(dir, "xdg", "clawvault-tui", "search", "vault-")) {
		t.Errorf("roots %v, dir %s", ids, opt.Dir)
	}
	// ~ and relative cache folders; never one inside the vault.
	for cache, want := range map[string]string{"~/idx": filepath.Join(dir, "idx"), "rel": filepath.Join(dir, "rel")} {
		if got := CacheDir(store.SearchConfig{CacheDir: cache}, env); got != want {
			t.Errorf("cache_dir %q → %s, want %s", cache, got, want)
		}
	}
	if _, err := OptionsFor(ws, store.SearchConfig{CacheDir: filepath.Join(m.VaultDir, "cache")}, env); err == nil || !strings.Contains(err.Error(), "inside") {
		t.Errorf("a cache inside the vault: %v", err)
	}
	if err := os.Symlink(filepath.Join(m.VaultDir, "inbox"), filepath.Join(dir, "sneaky")); err != nil {
		t.Fatal(err)
	}
	if _, err := OptionsFor(ws, store.SearchConfig{CacheDir: filepath.Join(dir, "sneaky")}, env); err == nil {
		t.Error("a cache reached through a symlink into the vault was accepted")
	}
	if _, err := OptionsFor(&store.Workspace{}, store.SearchConfig{}, env); err == nil || !strings.Contains(err.Error(), "nothing to search") {
		t.Errorf("no vault and no workspace: %v", err)
	}
}

func TestExactLines(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/notes.md", notes)
	e.write("vault/crlf.md", "# Title\r\nfirst\r\nsecond crlfword\r\n")
	e.write("vault/bom.md", "\ufeffbomword first line\n")
	ix := e.open()
	cases := []struct {
		query, where string
		highlights   []string
		snippet      string
	}{
		{"frontmatterword", "notes.md:2", []string{"frontmatterword"}, "title: Alpha frontmatterword"},
		{"headingword", "notes.md:4", []string{"headingword"}, "# Heading headingword"},
		{"listword", "notes.md:6", []string{"listword"}, "- list item listword"},
		{"fenceword", "notes.md:10", []string{"fenceword"}, "echo fenceword"},
		{"codecomment", "notes.md:11", []string{"codecomment"}, "# not a heading codecomment"},
		{"naïveword", "notes.md:13", []string{"naïveword"}, "Zoë Müller wrote naïveword in the café"},
		{"zoë café", "notes.md:13", []string{"Zoë", "café"}, ""},
		{"zoe muller", "notes.md:13", []string{"Zoë", "Müller"}, ""}, // diacritics folded
		{"müll*", "notes.md:13", []string{"Müller"}, ""},
		{"keypressmsg", "notes.md:14", []string{"KeyPressMsg"}, "indented tea.KeyPressMsg handler"},
		{"tea.KeyPressMsg", "notes.md:14", []string{"tea.KeyPressMsg"}, ""},
		{"crlfword", "crlf.md:3", []string{"crlfword"}, "second crlfword"},
		{"bomword", "bom.md:1", []string{"bomword"}, "bomword first line"},
	}
	for _, c := range cases {
		hits := find(t, ix, c.query)
		if len(hits) != 1 || where(hits)[0] != c.where {
			t.Errorf("%q: hits %v, want %s", c.query, where(hits), c.where)
			continue
		}
		if got := highlighted(hits[0]); !slices.Equal(got, c.highlights) {
			t.Errorf("%q: highlights %q, want %q (snippet %q)", c.query, got, c.highlights, hits[0].Snippet)
		}
		if c.snippet != "" && hits[0].Snippet != c.snippet {
			t.Errorf("%q: snippet %q, want %q", c.query, hits[0].Snippet, c.snippet)
		}
	}
}

func TestHitKinds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/notes.md", notes)
	ix := e.open()
	for q, kind := range map[string]SectionKind{"frontmatterword": FrontMatter, "headingword": Prose} {
		if hits := find(t, ix, q); len(hits) != 1 || hits[0].Kind != kind {
			t.Errorf("%s: %+v", q, hits)
		}
	}
}

// TestSearchDuringABuild: a search answers while a sync is indexing (the
// TUI searches as the index fills).
func TestSearchDuringABuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/first.md", "# First\nearlyword\n")
	ix := e.open()
	for i := range 20 {
		e.write(fmt.Sprintf("vault/later%02d.md", i), "# Later\nlateword\n")
	}
	searched := false
	_, err := ix.Sync(context.Background(), func(p Progress) {
		if p.Files != 5 || searched {
			return
		}
		searched = true
		done := make(chan []Hit)
		go func() { done <- find(t, ix, "earlyword") }()
		select {
		case hits := <-done:
			if len(hits) != 1 {
				t.Errorf("during the build: %v", where(hits))
			}
		case <-time.After(10 * time.Second):
			t.Error("a search waited for the build")
		}
	})
	if err != nil || !searched {
		t.Fatal(err, searched)
	}
}

func TestBestLineHoldsTheMostQueryWords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# Plan\nalpha here\nnothing\nbeta there\nboth alpha and beta\nalpha again\n")
	hits := find(t, e.open(), "alpha beta")
	if len(hits) != 1 || hits[0].Line != 5 || hits[0].SectionLine != 1 || hits[0].Heading != "Plan" {
		t.Fatalf("hits %v %+v", where(hits), hits)
	}
}

func TestObservations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/ledger/observations/2026/11/20.md", "## 2026-11-20\n\n"+
		"- [decision|c=0.95|i=0.90] 10:00 [main] user: We decided to use PostgreSQL for billing.\n"+
		"- [fact|c=0.72|i=0.20] 10:05 [main] user: PostgreSQL runs on port 5432.\n"+
		"- [lesson|c=0.70|i=0.55] 10:09 [main] user: Lesson learned: back up PostgreSQL first.\n")
	e.write("vault/observations/2026-09-01.md", "## 2026-09-01\n\n🔴 14:30 Decided on PostgreSQL over MongoDB.\n🟢 14:50 Server deployed.\n")
	ix := e.open()
	cases := map[string][]string{
		"postgresql type:decision":             {"ledger/observations/2026/11/20.md:3", "observations/2026-09-01.md:3"},
		"postgresql i>=0.5":                    {"ledger/observations/2026/11/20.md:3", "ledger/observations/2026/11/20.md:5", "observations/2026-09-01.md:3"},
		"postgresql i<0.5":                     {"ledger/observations/2026/11/20.md:4"},
		"postgresql c=0.72":                    {"ledger/observations/2026/11/20.md:4"},
		"type:fact":                            {"ledger/observations/2026/11/20.md:4", "observations/2026-09-01.md:4"},
		"type:decision,lesson i>0.6":           {"ledger/observations/2026/11/20.md:3", "observations/2026-09-01.md:3"},
		"postgresql -type:decision":            {"ledger/observations/2026/11/20.md:4", "ledger/observations/2026/11/20.md:5"},
		"postgresql path:observations/2026-09": {"observations/2026-09-01.md:3"},
		"postgresql path:observations":         {"ledger/observations/2026/11/20.md:3", "ledger/observations/2026/11/20.md:4", "ledger/observations/2026/11/20.md:5", "observations/2026-09-01.md:3"},
		"postgresql path:2026/11":              {"ledger/observations/2026/11/20.md:3", "ledger/observations/2026/11/20.md:4", "ledger/observations/2026/11/20.md:5"},
		"postgresql -path:ledger i>=0.5":       {"observations/2026-09-01.md:3"},
		`"use postgresql"`:                     {"ledger/observations/2026/11/20.md:3"},
		`postgresql -"runs on port"`:           {"ledger/observations/2026/11/20.md:3", "ledger/observations/2026/11/20.md:5", "observations/2026-09-01.md:3"},
		"decide postgresql":                    {"ledger/observations/2026/11/20.md:3", "observations/2026-09-01.md:3"}, // stems
		"2026-11-20 postgresql type:fact":      {},                                                                      // the date heading is not a word of every line
	}
	for q, want := range cases {
		got := where(find(t, ix, q))
		slices.Sort(got)
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
	// A filter-only query lists the most important first, sections
	// (here the day's heading) last.
	hits := find(t, ix, "path:ledger")
	if got := where(hits); !slices.Equal(got, []string{"ledger/observations/2026/11/20.md:3", "ledger/observations/2026/11/20.md:5",
		"ledger/observations/2026/11/20.md:4", "ledger/observations/2026/11/20.md:1"}) {
		t.Fatalf("path:ledger: %v", got)
	}
	if h := hits[0]; h.Kind != ObservationLine || h.Heading != "2026-11-20" || h.Observation.Type != "decision" {
		t.Errorf("observation hit %+v", h)
	}
}

func TestAsYouType(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# Runbook\nRun the pg_dump backup before the migration.\n")
	ix := e.open()
	for _, typed := range []string{"mi", "mig", "migr", "pg_d", "backup mi", `"backup befo`} {
		res, err := ix.Search(context.Background(), typed, SearchOptions{AsYouType: true})
		if err != nil || len(res.Hits) != 1 || res.Hits[0].Line != 2 {
			t.Errorf("%q: %+v %v", typed, res, err)
		}
	}
	// The same words, not typing, are whole words.
	if hits := find(t, ix, "mig"); len(hits) != 0 {
		t.Errorf("mig as a word: %v", where(hits))
	}
	res, err := ix.Search(context.Background(), "migration m", SearchOptions{AsYouType: true})
	if err != nil || len(res.Hits) != 1 {
		t.Errorf("a one-letter last word does not narrow yet: %+v %v", res, err)
	}
	if res, err := ix.Search(context.Background(), "", SearchOptions{AsYouType: true}); err != nil || len(res.Hits) != 0 {
		t.Errorf("empty while typing: %+v %v", res, err)
	}
}

// TestAWordBeingTypedStandsForItsMostFrequentCompletions: while typing,
// a prefix with more than maxPrefixTerms completions stands for the most
// frequent; written as word*, for all of them.
func TestAWordBeingTypedStandsForItsMostFrequentCompletions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range maxPrefixTerms + 2 {
		// pfxa… is in 1 file, pfxb… in 2, …: the rarest are left out.
		for j := range i + 1 {
			e.write(fmt.Sprintf("vault/w%02d-%02d.md", i, j), fmt.Sprintf("# N\npfx%c\n", 'a'+i))
		}
	}
	ix := e.open()
	typing, err := ix.Search(context.Background(), "pfx", SearchOptions{AsYouType: true, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	all, err := ix.Search(context.Background(), "pfx*", SearchOptions{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	// 12 words in 1+2+…+12 = 78 files; the two rarest (1 and 2 files) go.
	if typing.Total != 78-3 || all.Total != 78 {
		t.Fatalf("typing: %d hits, pfx*: %d", typing.Total, all.Total)
	}
}

func TestNoMatchAndBadQueries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\ntext\n")
	ix := e.open()
	res, err := ix.Search(context.Background(), "nothingmatchesthis", SearchOptions{})
	if err != nil || res.Total != 0 || len(res.Hits) != 0 {
		t.Fatalf("no match: %+v %v", res, err)
	}
	for _, q := range []string{"", `"unclosed`, "type:nonsense", "i>=7"} {
		var qe *QueryError
		if _, err := ix.Search(context.Background(), q, SearchOptions{}); !errors.As(err, &qe) {
			t.Errorf("%q: err = %v, want a *QueryError", q, err)
		}
	}
}

func TestTiesAreOrderedByFileAndLine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	line := "- [decision|c=0.95|i=0.90] 10:00 We decided to keep the tieword.\n"
	e.write("vault/decisions/b.md", "# b\n\n"+line+line)
	e.write("vault/decisions/a.md", "# a\n\n"+line)
	e.write("vault/ledger/observations/2026/11/20.md", "## 2026-11-20\n\n"+line)
	got := where(find(t, e.open(), "tieword"))
	want := []string{"decisions/a.md:3", "decisions/b.md:3", "decisions/b.md:4", "ledger/observations/2026/11/20.md:3"}
	if !slices.Equal(got, want) {
		t.Fatalf("%v, want %v", got, want)
	}
}

// Ties that cross the cut, in groups larger than the hits asked for: the
// first by file and line are kept, with their text, whether the ties at
// the cut are ordered by scoreThenID or by bleve's sort by id.
func TestTiesAtTheCutKeepTheFirstByFileAndLine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	line := "- [decision|c=0.95|i=0.90] 10:00 We decided to keep the tieword.\n"
	e.write("vault/decisions/b.md", "# b\n\n"+strings.Repeat(line, 40))
	e.write("vault/decisions/a.md", "# a\n\n"+strings.Repeat(line, 30))
	e.write("vault/z.md", "# Tieword\n\nThe tieword, twice: tieword.\n")
	ix := e.open()
	for i := range 8 {
		limit := []int{1, 3, 31, 69}[i%4]
		how := searchWays{bleveSortsTies: i >= 4}
		res, err := ix.Search(context.Background(), "tieword", SearchOptions{Limit: limit, how: how})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"z.md:1"}
		for i := 0; len(want) < limit; i++ {
			if i < 30 {
				want = append(want, fmt.Sprintf("decisions/a.md:%d", 3+i))
			} else {
				want = append(want, fmt.Sprintf("decisions/b.md:%d", 3+i-30))
			}
		}
		if got := where(res.Hits); !slices.Equal(got, want) || res.Total != 71 {
			t.Fatalf("limit %d: %v (of %d), want %v", limit, got, res.Total, want)
		}
		for _, h := range res.Hits {
			if !strings.Contains(strings.ToLower(h.Snippet), "tieword") || h.Heading == "" {
				t.Fatalf("limit %d: %+v lacks its text", limit, h)
			}
		}
	}
}

// A run of many batches leaves the index in one segment, and the index
// on disk names it: reopened, it is up to date and finds every file.
func TestLargeRunLeavesOneSegment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 3 {
		var b strings.Builder
		for j := range 1500 {
			fmt.Fprintf(&b, "- line %d of file%d, about the warehouse cut-over and nothing else\n", j, i)
		}
		e.write(fmt.Sprintf("vault/notes/n%d.md", i), b.String())
	}
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	ix.compactAfter = 2 // the run below commits seven batches
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	again := e.open()
	adv, err := again.idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	if n := rootSegments(adv.(*scorch.Scorch)); n != 1 {
		t.Fatalf("%d segments after a large run", n)
	}
	st, err := again.Sync(context.Background(), nil)
	if err != nil || st.Unchanged != 3 || st.Indexed != 0 {
		t.Fatalf("reopened: %+v %v", st, err)
	}
	for i := range 3 {
		if hits := find(t, again, fmt.Sprintf("file%d", i)); len(hits) == 0 {
			t.Errorf("file%d not found after the merge", i)
		}
	}
}

func TestLongLineSnippet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	long := strings.Repeat("filler é words ", 40) + "needle " + strings.Repeat("tail ü words ", 40)
	e.write("vault/long.md", long+"\n")
	hits := find(t, e.open(), "needle")
	if len(hits) != 1 {
		t.Fatal(where(hits))
	}
	h := hits[0]
	if len(h.Snippet) > maxSnippet+2*len("…") || !strings.HasPrefix(h.Snippet, "…") || !strings.HasSuffix(h.Snippet, "…") {
		t.Errorf("snippet %q", h.Snippet)
	}
	if got := highlighted(h); !slices.Equal(got, []string{"needle"}) {
		t.Errorf("highlights %q in %q", got, h.Snippet)
	}
}

func TestDeletedAndRenamedFilesLeaveNoStaleHits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.write("vault/people/elena.md", "# Elena\nfinance lead, staleword\n")
	b := e.write("vault/people/marco.md", "# Marco\nprocurement, otherword\n")
	e.write("workspace/memory/2026-11-20.md", "- 10:00 memoryword\n")
	ix := e.open()
	ctx := context.Background()

	// Rename, then the two events an editor or fsnotify reports.
	renamed := e.path("vault/people/elena-vasquez.md")
	if err := os.Rename(a, renamed); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(ctx, a, renamed); err != nil {
		t.Fatal(err)
	}
	if got := where(find(t, ix, "staleword")); !slices.Equal(got, []string{"people/elena-vasquez.md:2"}) {
		t.Errorf("after rename: %v", got)
	}
	// Delete, found by a sync alone.
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Sync(ctx, nil)
	if err != nil || st.Removed != 1 {
		t.Fatalf("sync after delete: %+v %v", st, err)
	}
	if hits := find(t, ix, "otherword"); len(hits) != 0 {
		t.Errorf("deleted file still found: %v", where(hits))
	}
	// A folder moved away: one event for the folder.
	if err := os.Rename(e.path("vault/people"), e.path("vault/archive-people")); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(ctx, e.path("vault/people"), e.path("vault/archive-people")); err != nil {
		t.Fatal(err)
	}
	if got := where(find(t, ix, "staleword")); !slices.Equal(got, []string{"archive-people/elena-vasquez.md:2"}) {
		t.Errorf("after moving the folder: %v", got)
	}
	// A workspace file deleted.
	os.Remove(e.path("workspace/memory/2026-11-20.md"))
	if _, err := ix.Update(ctx, e.path("workspace/memory/2026-11-20.md")); err != nil {
		t.Fatal(err)
	}
	if hits := find(t, ix, "memoryword"); len(hits) != 0 {
		t.Errorf("deleted memory note still found: %v", where(hits))
	}
}

func TestExternalEditIsReindexed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.write("vault/a.md", "# A\nold text\n")
	e.write("vault/b.md", "# B\nuntouched\n")
	ix := e.open()
	ctx := context.Background()
	// Edited outside the tool (an editor, ClawVault, Obsidian): new size.
	e.write("vault/a.md", "# A\nold text\nnew line with freshword\n")
	st, err := ix.Sync(ctx, nil)
	if err != nil || st.Indexed != 1 || st.Unchanged != 1 {
		t.Fatalf("sync: %+v %v", st, err)
	}
	if got := where(find(t, ix, "freshword")); !slices.Equal(got, []string{"a.md:3"}) {
		t.Errorf("freshword: %v", got)
	}
	// Same size and mtime, other bytes: an update names the file.
	e.write("vault/a.md", "# A\nold text\nnew line with brandword\n")
	fi, _ := os.Stat(p)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	if _, err := ix.Update(ctx, p); err != nil {
		t.Fatal(err)
	}
	// Touched, content unchanged: read, not re-indexed.
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	if st, err := ix.Sync(ctx, nil); err != nil || st.Touched != 1 || st.Indexed != 0 {
		t.Fatalf("touch: %+v %v", st, err)
	}
	if st, err := ix.Sync(ctx, nil); err != nil || st.Unchanged != 2 {
		t.Fatalf("second sync: %+v %v", st, err)
	}
}

func TestOnlyChangedSectionsAreReindexed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	day := "## 2026-11-20\n\n" +
		"- [decision|c=0.95|i=0.90] 10:00 alphaword\n" +
		"- [fact|c=0.72|i=0.20] 10:05 betaword\n" +
		"- [lesson|c=0.70|i=0.55] 10:09 gammaword\n"
	p := e.write("vault/ledger/observations/2026/11/20.md", day)
	ix := e.open()
	ctx := context.Background()
	update := func(content string, sections int) {
		t.Helper()
		e.write("vault/ledger/observations/2026/11/20.md", content)
		st, err := ix.Update(ctx, p)
		if err != nil || st.Sections != sections {
			t.Fatalf("%d sections re-indexed, want %d (%v)", st.Sections, sections, err)
		}
	}
	// Appended, as the observer does: one new document.
	update(day+"- [todo|c=0.78|i=0.65] 10:30 deltaword\n", 1)
	// One line edited in place: one document.
	update(strings.Replace(day, "betaword", "betaedited", 1)+"- [todo|c=0.78|i=0.65] 10:30 deltaword\n", 1)
	// A line inserted at the top: everything below moved.
	update("## 2026-11-20\n\n- [fact|c=0.5|i=0.5] 09:00 firstword\n"+strings.Replace(day[len("## 2026-11-20\n\n"):], "betaword", "betaedited", 1), 4)
	// The heading renamed: its section and those under it (they show it).
	update("## 2026-11-21\n\n- [fact|c=0.5|i=0.5] 09:00 firstword\n"+strings.Replace(day[len("## 2026-11-20\n\n"):], "betaword", "betaedited", 1), 5)
	want := map[string]string{"firstword": "3", "alphaword": "4", "betaedited": "5", "gammaword": "6"}
	for w, line := range want {
		hits := find(t, ix, w)
		if len(hits) != 1 || strconv.Itoa(hits[0].Line) != line || hits[0].Heading != "2026-11-21" {
			t.Errorf("%s: %+v, want line %s", w, hits, line)
		}
	}
	for _, w := range []string{"betaword", "deltaword"} {
		if hits := find(t, ix, w); len(hits) != 0 {
			t.Errorf("%s is stale: %v", w, where(hits))
		}
	}
}

func TestReopenKeepsTheIndex(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nkeptword\n")
	ix := e.open()
	ix.Close()
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Sync(context.Background(), nil)
	if err != nil || st.Indexed != 0 || st.Unchanged != 1 || st.Docs != 1 {
		t.Fatalf("reopen: %+v %v", st, err)
	}
	if hits := find(t, ix, "keptword"); len(hits) != 1 {
		t.Fatal(where(hits))
	}
}

func TestSchemaChangeOrDamageRebuilds(t *testing.T) {
	t.Parallel()
	// setInternal changes the closed index as another version of the
	// program would have left it.
	setInternal := func(t *testing.T, dir string, key, val []byte) {
		idx, err := bleve.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := idx.SetInternal(key, val); err != nil {
			t.Fatal(err)
		}
		idx.Close()
	}
	for name, damage := range map[string]func(t *testing.T, dir string){
		"older schema":     func(t *testing.T, dir string) { setInternal(t, dir, keySchema, []byte("0-old")) },
		"damaged manifest": func(t *testing.T, dir string) { setInternal(t, dir, keyManifest, []byte("garbage")) },
		"damaged metadata": func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "index_meta.json"), []byte("{"), 0o644)
		},
		"no store": func(t *testing.T, dir string) { os.RemoveAll(filepath.Join(dir, "store")) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.write("vault/a.md", "# A\nsurvivor\n")
			e.open().Close()
			damage(t, e.opt.Dir)
			ix, err := Open(e.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if reason := ix.RebuildReason(); (name == "older schema") != strings.Contains(reason, "another version of clawvault-tui (schema 0-old") {
				t.Fatalf("rebuild reason: %q", reason)
			}
			st, err := ix.Sync(context.Background(), nil)
			if err != nil || st.Indexed != 1 {
				t.Fatalf("rebuilt: %+v %v", st, err)
			}
			if hits := find(t, ix, "survivor"); len(hits) != 1 {
				t.Fatal(where(hits))
			}
			if reason := ix.RebuildReason(); reason != "" {
				t.Fatalf("the reason is still given once built again: %q", reason)
			}
		})
	}
}

// TestACrashMidRunRebuilds: a run of several batches that never finished
// (the process died) leaves documents the manifest does not list; the
// next open finds the marker and rebuilds rather than trust it.
func TestACrashMidRunRebuilds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nfirstword\n")
	e.write("vault/b.md", "# B\nsecondword\n")
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ix.opt.list(&ix.opt.Roots[0], "", nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	w := ix.newWriter(&Stats{})
	if err := w.index(l.files[0]); err != nil {
		t.Fatal(err)
	}
	if err := w.commit(false); err != nil { // a batch in the middle of a run…
		t.Fatal(err)
	}
	if err := w.wait(); err != nil {
		t.Fatal(err)
	}
	ix.Close() // …and no last one.
	ix, err = Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Sync(context.Background(), nil)
	if err != nil || st.Indexed != 2 || st.Docs != 2 {
		t.Fatalf("after the crash: %+v %v", st, err)
	}
}

func TestRebuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nword\n")
	ix := e.open()
	st, err := ix.Rebuild(context.Background(), nil)
	if err != nil || st.Indexed != 1 || st.Docs != 1 {
		t.Fatalf("%+v %v", st, err)
	}
}

func TestOutsidePathsAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.write("elsewhere/secret.md", "# Secret\nsecretword\n")
	if err := os.Symlink(secret, e.path("vault/link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.path("elsewhere"), e.path("vault/linkdir")); err != nil {
		t.Fatal(err)
	}
	ix := e.open()
	if hits := find(t, ix, "secretword"); len(hits) != 0 {
		t.Fatalf("a symlink out of the vault was followed: %v", where(hits))
	}
	for _, p := range []string{secret, e.path("vault/link.md"), e.path("vault/linkdir/secret.md"), "/etc/hostname"} {
		if _, err := ix.Update(context.Background(), p); !errors.Is(err, ErrOutside) {
			t.Errorf("%s: err = %v, want ErrOutside", p, err)
		}
	}
}

func TestTemplatesArchiveAndDotFolders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/templates/decision.md", "# {{title}}\ntemplateword\n")
	e.write("vault/ledger/archive/observations/2026/01/01.md", "## 2026-01-01\n\n- [fact|c=0.5|i=0.5] archiveword\n")
	e.write("vault/.obsidian/workspace.md", "dotword\n")
	e.write("vault/notes.txt", "txtword\n")
	e.write("workspace/AGENTS.md", "agentsword\n")
	ix := e.open()
	for _, w := range []string{"templateword", "archiveword", "dotword", "txtword", "agentsword"} {
		if hits := find(t, ix, w); len(hits) != 0 {
			t.Errorf("%s found by default: %v", w, where(hits))
		}
	}
	ix.Close()
	e.opt.IncludeTemplates, e.opt.IncludeArchive = true, true
	ix = e.open()
	for _, w := range []string{"templateword", "archiveword"} {
		if hits := find(t, ix, w); len(hits) != 1 {
			t.Errorf("%s with the setting: %v", w, where(hits))
		}
	}
	e.opt.IncludeTemplates = false // and off again: the documents go
	ix.Close()
	ix = e.open()
	if hits := find(t, ix, "templateword"); len(hits) != 0 {
		t.Errorf("templates stay after the setting is off: %v", where(hits))
	}
}

func TestWorkspaceMemoryAndAVaultInside(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("workspace/MEMORY.md", "# MEMORY.md\n\n## People\n- **Elena**: finance lead, memorywordA\n")
	e.write("workspace/memory/2026-11-20.md", "# 2026-11-20\n\n## Log\n- 08:45 memorywordB\n")
	// clawvault setup's default: the vault is <workspace>/memory.
	e.opt.Roots[0].Dir = e.path("workspace/memory")
	e.write("workspace/memory/decisions/x.md", "# x\nvaultword\n")
	ix := e.open()
	hits := find(t, ix, "memorywordA")
	if len(hits) != 1 || hits[0].Root != "workspace/main" || hits[0].Agent != "main" || hits[0].Line != 4 || hits[0].Heading != "People" {
		t.Errorf("MEMORY.md: %+v", hits)
	}
	for _, w := range []string{"memorywordB", "vaultword"} {
		if hits := find(t, ix, w); len(hits) != 1 || hits[0].Root != "vault" {
			t.Errorf("%s: want one hit, from the vault: %+v", w, hits)
		}
	}
	if hits, err := ix.Search(context.Background(), "memorywordA", SearchOptions{Roots: []string{"vault"}}); err != nil || len(hits.Hits) != 0 {
		t.Errorf("roots filter: %+v %v", hits, err)
	}
}

func TestTranscripts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	header := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/w"}` + "\n"
	msg := func(role, text string) string {
		return fmt.Sprintf(`{"type":"message","id":"x","parentId":null,"message":{"role":%q,"content":[{"type":"text","text":%q}]}}`+"\n", role, text)
	}
	p := e.write("sessions/s1.jsonl", header+msg("user", "Where do the SOC2 files go?")+msg("assistant", "Into evidence/, one folder\nper control id."))
	e.write("sessions/s1.jsonl.lock", "")
	e.write("sessions/sessions.json", `{"agent:main:main":{"sessionId":"s1"}}`)
	ix := e.open()
	ctx := context.Background()
	hits := find(t, ix, "control")
	if len(hits) != 1 || hits[0].Line != 3 || hits[0].Kind != Message || hits[0].Heading != "assistant" || hits[0].Snippet != "per control id." {
		t.Fatalf("control: %+v", hits)
	}
	// Appended lines are indexed alone; a torn last line waits.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(msg("user", "appendedword please") + `{"type":"message","message":{"role":"user","content":"tornword`)
	f.Close()
	st, err := ix.Update(ctx, p)
	if err != nil || st.Appended != 1 {
		t.Fatalf("append: %+v %v", st, err)
	}
	if got := where(find(t, ix, "appendedword")); !slices.Equal(got, []string{"s1.jsonl:4"}) {
		t.Errorf("appendedword: %v", got)
	}
	if hits := find(t, ix, "tornword"); len(hits) != 0 {
		t.Errorf("a torn line was indexed: %v", where(hits))
	}
	f, _ = os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`"}}` + "\n")
	f.Close()
	if _, err := ix.Update(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := where(find(t, ix, "tornword")); !slices.Equal(got, []string{"s1.jsonl:5"}) {
		t.Errorf("tornword once complete: %v", got)
	}
	// Rewritten shorter: everything is read again, nothing stale stays.
	e.write("sessions/s1.jsonl", header+msg("user", "rewrittenword"))
	if st, err := ix.Update(ctx, p); err != nil || st.Appended != 0 || st.Indexed != 1 {
		t.Fatalf("rewrite: %+v %v", st, err)
	}
	for w, want := range map[string]int{"control": 0, "appendedword": 0, "tornword": 0, "rewrittenword": 1} {
		if hits := find(t, ix, w); len(hits) != want {
			t.Errorf("%s after the rewrite: %v", w, where(hits))
		}
	}
}

// TestALongTranscriptSpansBatches: a transcript larger than a batch is
// committed in several, and the index is whole afterwards.
func TestALongTranscriptSpansBatches(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, `{"type":"message","message":{"role":"user","content":"message number%d %s"}}`+"\n", i, strings.Repeat("filler ", 10))
	}
	e.write("sessions/long.jsonl", b.String())
	ix := e.open()
	for _, w := range []string{"number0", "number1500", "number2999"} {
		hits := find(t, ix, w)
		if want, _ := strconv.Atoi(strings.TrimPrefix(w, "number")); len(hits) != 1 || hits[0].Line != want+1 {
			t.Errorf("%s: %v", w, where(hits))
		}
	}
	ix.Close()
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if st, err := ix.Sync(context.Background(), nil); err != nil || st.Unchanged != 1 || st.Docs != 3000 {
		t.Fatalf("reopened: %+v %v", st, err)
	}
}

func TestCancelLeavesAConsistentIndex(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/first.md", "# First\ncommonword firstword\n")
	ix := e.open() // a full build of one file; the next run is incremental
	for i := range 50 {
		e.write(fmt.Sprintf("vault/n%02d.md", i), fmt.Sprintf("# N%d\ncommonword n%dword\n", i, i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err := ix.Sync(ctx, func(p Progress) {
		if p.Files == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	// What the first run committed stays; the second reads the rest.
	st, err := ix.Sync(context.Background(), nil)
	if err != nil || st.Files != 51 || st.Docs != 51 || st.Unchanged < 2 || st.Indexed == 0 || st.Unchanged+st.Indexed != 51 {
		t.Fatalf("resumed: %+v %v", st, err)
	}
	if res, err := ix.Search(context.Background(), "commonword", SearchOptions{Limit: 100}); err != nil || res.Total != 51 {
		t.Fatalf("%+v %v", res, err)
	}
}

// A full build of files that hold no section (empty, blank) has no
// segment to build: the empty index takes the manifest (it panicked),
// and a file written later is found.
func TestFullBuildOfEmptyFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/empty.md", "")
	e.write("vault/blank.md", "\n\n")
	ix := e.open()
	if hits := find(t, ix, "path:empty"); len(hits) != 0 {
		t.Fatalf("%v", where(hits))
	}
	e.write("vault/later.md", "# Later\n\nlaterword\n")
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if got := where(find(t, ix, "laterword")); !slices.Equal(got, []string{"later.md:3"}) {
		t.Fatalf("%v", got)
	}
	if st, err := ix.Sync(context.Background(), nil); err != nil || st.Indexed != 0 || st.Files != 3 {
		t.Fatalf("a second sync: %+v %v", st, err)
	}
}

// A full build raises the collector's target while it runs and puts
// back what was set, whether it built segments or had none to build.
func TestABuildPutsTheGCTargetBack(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	for _, content := range []string{"# Notes\n\ngcword\n", ""} {
		e := newEnv(t)
		e.write("vault/notes.md", content)
		e.open()
		if got := debug.SetGCPercent(150); got != 150 {
			t.Fatalf("%q: the GC target is %d after the build, want 150", content, got)
		}
	}
}

// TestCancelledFullBuild: a full build cancelled half-way leaves the
// index empty (the store built so far is dropped, not installed), open,
// and searchable; the next run builds it all, and reopening finds it.
func TestCancelledFullBuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 50 {
		e.write(fmt.Sprintf("vault/n%02d.md", i), fmt.Sprintf("# N%d\ncommonword n%dword\n", i, i))
	}
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	_, err = ix.Sync(ctx, func(p Progress) {
		if p.Files == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if res, err := ix.Search(context.Background(), "commonword", SearchOptions{Limit: 100}); err != nil || res.Total != 0 {
		t.Fatalf("after the cancel: %+v %v", res, err)
	}
	if _, err := os.Stat(ix.buildDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cancelled build's folder is left: %v", err)
	}
	st, err := ix.Sync(context.Background(), nil)
	if err != nil || st.Files != 50 || st.Docs != 50 || st.Indexed != 50 {
		t.Fatalf("resumed: %+v %v", st, err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err = Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if st, err := ix.Sync(context.Background(), nil); err != nil || st.Unchanged != 50 || st.Indexed != 0 || st.Docs != 50 {
		t.Fatalf("reopened: %+v %v", st, err)
	}
	if res, err := ix.Search(context.Background(), "n7word", SearchOptions{}); err != nil || res.Total != 1 {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestTwoProcesses: a second process gets ErrBusy while the first has the
// index open, and the index once the first is gone.
func TestTwoProcesses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nshared\n")
	e.open().Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldIndex$")
	cmd.Env = append(os.Environ(), "CVTUI_HOLD_INDEX="+e.opt.Dir, "CVTUI_HOLD_VAULT="+e.opt.Roots[0].Dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The helper says when it has the index open.
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "open\n" {
		t.Fatalf("helper: %q %v", line, err)
	}
	_, err := Open(e.opt)
	var busy *BusyError
	if !errors.As(err, &busy) || !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "index busy") {
		t.Fatalf("second open: %v", err)
	}
	stdin.Close() // the helper closes the index and exits
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if hits := find(t, ix, "shared"); len(hits) != 1 {
		t.Fatal(where(hits))
	}
}

// TestHelperHoldIndex is the other process of TestTwoProcesses.
func TestHelperHoldIndex(t *testing.T) {
	dir := os.Getenv("CVTUI_HOLD_INDEX")
	if dir == "" {
		t.Skip("run by TestTwoProcesses")
	}
	ix, err := Open(Options{Dir: dir, Roots: []Root{{ID: "vault", Kind: VaultRoot, Dir: os.Getenv("CVTUI_HOLD_VAULT")}}})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("open")
	bufio.NewReader(os.Stdin).ReadString('\n') // until stdin closes
	ix.Close()
}

func TestWatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.write("vault/a.md", "# A\nbefore\n")
	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	reports := make(chan WatchReport, 100)
	done := make(chan error)
	go func() { done <- ix.Watch(ctx, func(r WatchReport) { reports <- r }) }()
	// waitFor reads reports until the index answers q with the hits want
	// (rel:line); the deadline only turns a hang into a failure.
	waitFor := func(q string, want ...string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			got := where(find(t, ix, q))
			if slices.Equal(got, want) {
				return
			}
			select {
			case r := <-reports:
				if r.Err != nil {
					t.Fatalf("watch: %v", r.Err)
				}
			case <-deadline:
				t.Fatalf("%q: %v, never %v", q, got, want)
			}
		}
	}
	waitFor("before", "a.md:2")
	e.write("vault/a.md", "# A\n\nafter\n")
	waitFor("after", "a.md:3")
	waitFor("before")
	e.write("vault/new/folder/b.md", "# B\nnested\n") // a new folder, watched as it appears
	waitFor("nested", "new/folder/b.md:2")
	os.Rename(e.path("vault/new"), e.path("vault/moved"))
	waitFor("nested", "moved/folder/b.md:2")
	e.write("vault/moved/folder/b.md", "# B\n\nnested, edited after the move\n")
	waitFor("nested", "moved/folder/b.md:3")
	os.RemoveAll(e.path("vault/moved"))
	waitFor("nested")
	e.write("workspace/MEMORY.md", "# MEMORY.md\nworkspaceword\n")
	waitFor("workspaceword", "MEMORY.md:2")
	e.write("vault/.clawvault/graph-index.json", "{}") // ignored, and harmless
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
