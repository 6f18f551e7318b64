package ui

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/search"
)

// benchQueries are typed one key at a time on the Search screen.
var benchQueries = []string{
	"postgresql cut-over", "weekly billing sync", "soc2 questionnaire", "type:decision credit notes",
	"rotate the telegram token", "elena invoice backlog", "release notes friday", "warehouse migration jonas",
	"acme pricing proposal", "i>=0.8 lesson learned",
}

// BenchmarkSearchKeyPress is the Search screen's budget: from a key typed
// to its results drawn — Update for the key, the search it starts (a
// command in the TUI, run here at once), Update with the answer, and View
// — over the demo at BENCH_SCALE (100: a 15 MB vault and 10,000 sessions'
// agents' memory), for every prefix of ten queries. Beside it, in the same
// run, the query alone (search.Index.Search), the floor.
func BenchmarkSearchKeyPress(b *testing.B) {
	ws, m := benchWorkspace(b)
	opt := Options{Workspace: ws, Theme: "dark", Now: func() time.Time { return demotest.BenchClock }, Config: store.DefaultConfig(), BackupDir: b.TempDir()}
	// The index is kept beside the benchmark workspace: built by the first
	// run, only synced by the next ones.
	opt.Config.Search.CacheDir = filepath.Join(filepath.Dir(filepath.Dir(m.StateDir)), "ui-search-cache")
	a := New(opt)
	defer a.Close()
	a.c.Tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(b, a, "4")
	if !a.search.ready || a.search.syncErr != nil {
		b.Fatalf("the index is not ready: %v %v", a.search.openErr, a.search.syncErr)
	}
	ix, err := a.c.index.get()
	if err != nil {
		b.Fatal(err)
	}
	var took, floor []time.Duration
	hits := 0
	// The slowest prefixes, each at its fastest run, are logged with how
	// many sections they match: what the p95 is made of.
	type prefix struct {
		fastest time.Duration
		matched uint64
	}
	prefixes := map[string]prefix{}
	for b.Loop() {
		for _, q := range benchQueries {
			a.search.input.SetValue("")
			a.search.want, a.search.shown, a.search.res = "", "", nil
			for _, r := range q {
				start := time.Now()
				drive(b, a, func() tea.Msg { return keyMsg(string(r)) })
				_ = a.View()
				took = append(took, time.Since(start))
			}
			if a.search.res != nil {
				hits += len(a.search.res.Hits)
			}
			for i := range q {
				start := time.Now()
				res, err := ix.Search(context.Background(), q[:i+1], search.SearchOptions{Limit: searchLimit, AsYouType: true})
				if err != nil {
					var qe *search.QueryError
					if !errors.As(err, &qe) {
						b.Fatal(err)
					}
				}
				d := time.Since(start)
				floor = append(floor, d)
				if old, ok := prefixes[q[:i+1]]; !ok || d < old.fastest {
					var matched uint64
					if res != nil {
						matched = res.Total
					}
					prefixes[q[:i+1]] = prefix{d, matched}
				}
			}
		}
	}
	reportPercentiles(b, took, "")
	reportPercentiles(b, floor, "query-only-")
	slowest := slices.SortedFunc(maps.Keys(prefixes), func(x, y string) int { return cmp.Compare(prefixes[y].fastest, prefixes[x].fastest) })
	for _, q := range slowest[:min(5, len(slowest))] {
		b.Logf("query alone, fastest run: %6.2f ms for %q (%d sections match)", float64(prefixes[q].fastest.Microseconds())/1000, q, prefixes[q].matched)
	}
	b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
}

// BenchmarkVaultKeyPressWhileRendering is the Vault screen's budget: a key
// pressed while the preview of a 1 MB Markdown file is rendering (in a
// command, as the TUI runs it) costs Update and View only; the raw text is
// shown until the rendering arrives. The key presses made while the render
// runs are measured (samples-rendering), and those after it (idle-).
func BenchmarkVaultKeyPressWhileRendering(b *testing.B) {
	ws, _ := memoryWorkspace(b)
	big := filepath.Join(ws.Vault, "big.md")
	var md strings.Builder
	for md.Len() < 1<<20 {
		md.WriteString("## Week notes\n\n- **Decision**: keep invoices immutable; see [the runbook](https://example.com/runbook).\n")
		md.WriteString("- `pg_dump` before every migration, *always*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")
	}
	if err := os.WriteFile(big, []byte(md.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	a := New(Options{Workspace: ws, Theme: "dark", Now: func() time.Time { return fixedNow }, Config: store.DefaultConfig(), BackupDir: b.TempDir()})
	defer a.Close()
	a.c.Tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(b, a, "3")
	// Read the file (a command), and take the render it asks for without
	// running it: it runs in a goroutine, as Bubble Tea runs commands.
	load := a.vault.Reveal(big)
	_, render := a.Update(load())
	if render == nil {
		b.Fatal("no render was started")
	}
	rendered := make(chan tea.Msg, 1)
	renderStart := time.Now()
	var renderTook time.Duration
	go func() {
		msg := render()
		renderTook = time.Since(renderStart)
		rendered <- msg
	}()
	keys := []tea.KeyPressMsg{keyMsg("J"), keyMsg("J"), keyMsg("K"), keyMsg("K")}
	// The key presses made while the render runs are what the budget is
	// about; those made after it, in the same run, are the floor (the
	// render competes for the CPU and the garbage collector).
	var took, after []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		a.Update(keys[i%len(keys)])
		_ = a.View()
		if len(rendered) == 0 {
			took = append(took, time.Since(start))
		} else {
			after = append(after, time.Since(start))
		}
		i++
	}
	a.Update(<-rendered)
	if strings.Contains(viewText(a), "rendering…") {
		b.Error("the rendering did not arrive")
	}
	reportPercentiles(b, took, "")
	reportPercentiles(b, after, "idle-")
	b.ReportMetric(float64(len(took)), "samples-rendering")
	b.ReportMetric(float64(renderTook.Microseconds())/1000, "render-ms")
}

func reportPercentiles(b *testing.B, took []time.Duration, prefix string) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(took[len(took)/2]), prefix+"p50-ms")
	b.ReportMetric(ms(took[len(took)*95/100]), prefix+"p95-ms")
	b.ReportMetric(ms(took[len(took)-1]), prefix+"max-ms")
}
