package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
)

// gate holds a reader's calls until the test lets them through: each call
// reports its context, then waits until released or cancelled. A deaf gate
// ignores the cancel, like a job that had just finished when it came.
type gate struct {
	calls   chan context.Context
	release chan struct{}
	deaf    bool
}

func newGate() *gate {
	return &gate{calls: make(chan context.Context, 8), release: make(chan struct{})}
}

func (g *gate) pass(ctx context.Context) (context.Context, error) {
	g.calls <- ctx
	if g.deaf {
		<-g.release
		return context.WithoutCancel(ctx), nil
	}
	select {
	case <-g.release:
		return ctx, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// next returns the context of the gate's next call, waiting for it.
func (g *gate) next(t *testing.T) context.Context {
	t.Helper()
	select {
	case ctx := <-g.calls:
		return ctx
	case <-time.After(30 * time.Second):
		t.Fatal("the job never started")
		return nil
	}
}

// gatedReader reads a real file, with its index and search behind gates.
type gatedReader struct {
	transcript.Reader
	index, search *gate
}

func (r *gatedReader) Index(ctx context.Context, opt transcript.Options) (*transcript.Index, error) {
	ctx, err := r.index.pass(ctx)
	if err != nil {
		return nil, err
	}
	return r.Reader.Index(ctx, opt)
}

func (r *gatedReader) Search(ctx context.Context, ix *transcript.Index, query string, progress func(done, total int64)) ([]int32, error) {
	ctx, err := r.search.pass(ctx)
	if err != nil {
		return nil, err
	}
	return r.Reader.Search(ctx, ix, query, progress)
}

// gatedApp is the app on the demo, reading two spec transcripts (copied to
// a temp folder) through gated readers. It returns their rows and readers.
func gatedApp(t *testing.T) (*App, [2]model.SessionRow, [2]*gatedReader) {
	t.Helper()
	a := newApp(t, 100, 30, Options{})
	dir := t.TempDir()
	cache := transcript.NewCache()
	var rows [2]model.SessionRow
	var readers [2]*gatedReader
	byPath := map[string]*gatedReader{}
	for i, name := range []string{"spec-linear-compaction.jsonl", "spec-branch.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "store", "transcript", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rows[i] = model.SessionRow{Key: "agent:main:" + name, File: path, Exists: true, Name: model.FileName{Kind: model.FilePrimary}}
		readers[i] = &gatedReader{Reader: cache.File(path), index: newGate(), search: newGate()}
		byPath[path] = readers[i]
	}
	a.transcript.open = func(row model.SessionRow) transcript.Reader { return byPath[row.File] }
	return a, rows, readers
}

// openNow opens a gated session and lets its index through at once.
func openNow(t *testing.T, a *App, row model.SessionRow, r *gatedReader) {
	t.Helper()
	close(r.index.release)
	drive(t, a, func() tea.Msg { return openTranscriptMsg{row: row} })
	if a.transcript.ix == nil {
		t.Fatalf("the session did not open: %v", a.transcript.loadErr)
	}
}

// query types a search query in place of the last and returns the
// command enter gives.
func query(t *testing.T, a *App, text string) tea.Cmd {
	t.Helper()
	press(t, a, "/")
	for range len(a.transcript.searchInput.Value()) {
		press(t, a, "backspace")
	}
	typeText(t, a, text)
	_, cmd := a.Update(keyMsg("enter"))
	return cmd
}

// runAside runs a command on another goroutine (a task's command returns
// its first message, which may wait on a gate) and hands its message over.
func runAside(cmd tea.Cmd) func() tea.Msg {
	out := make(chan tea.Msg, 1)
	go func() { out <- cmd() }()
	return func() tea.Msg { return <-out }
}

// Opening another session cancels the index still being built for the
// first, and the first one's answer is dropped.
func TestOpeningAnotherSessionCancelsTheIndex(t *testing.T) {
	t.Parallel()
	a, rows, readers := gatedApp(t)
	p := a.transcript

	before := runtime.NumGoroutine()
	_, first := a.Update(openTranscriptMsg{row: rows[0]})
	if n := runtime.NumGoroutine(); n > before || len(readers[0].index.calls) > 0 {
		t.Fatalf("Update started the index (%d new goroutines)", n-before)
	}
	firstDone := runAside(first)
	firstCtx := readers[0].index.next(t)
	if firstCtx.Err() != nil {
		t.Fatal("the index was cancelled before anything superseded it")
	}

	_, second := a.Update(openTranscriptMsg{row: rows[1]})
	if !errors.Is(firstCtx.Err(), context.Canceled) {
		t.Fatalf("opening another session left the first index running (ctx err %v)", firstCtx.Err())
	}
	drive(t, a, firstDone) // the cancelled index's answer
	if p.loadErr != nil || p.ix != nil || !p.loading {
		t.Fatalf("the cancelled index's answer was taken: err %v, ix %v, loading %v", p.loadErr, p.ix != nil, p.loading)
	}

	close(readers[1].index.release)
	drive(t, a, second)
	if p.ix == nil || p.ix.Path != rows[1].File || p.loadErr != nil {
		t.Fatalf("the second session did not open: %v", p.loadErr)
	}
	for kind, cancel := range p.cancels {
		if cancel != nil && jobKind(kind) != kindBodies {
			t.Errorf("job kind %d still holds a context after its job ended", kind)
		}
	}
}

// A job that finished just as it was superseded still answers; the pane
// drops the answer by its job id: indexes, previews and bodies alike.
func TestSupersededResultsAreDropped(t *testing.T) {
	t.Parallel()
	a, rows, readers := gatedApp(t)
	p := a.transcript
	readers[0].index.deaf = true

	_, first := a.Update(openTranscriptMsg{row: rows[0]})
	firstDone := runAside(first)
	readers[0].index.next(t)
	staleSession, staleIndexJob := p.session, p.openJob

	close(readers[1].index.release)
	_, second := a.Update(openTranscriptMsg{row: rows[1]})
	drive(t, a, second)
	opened := p.ix
	if opened == nil || opened.Path != rows[1].File {
		t.Fatalf("the second session did not open: %v", p.loadErr)
	}

	close(readers[0].index.release) // the first index completes after all
	drive(t, a, firstDone)
	if p.ix != opened || p.openJob == staleIndexJob {
		t.Fatalf("the superseded index replaced the open one: %s", p.ix.Path)
	}

	// Previews and bodies are keyed by entry offset, which the first
	// transcript shares with the second: an answer for it must not land.
	e := opened.Entries[1]
	key := bodyKey{offset: e.Offset, width: p.detailWidth(), theme: a.c.Theme.Name}
	drive(t, a, func() tea.Msg {
		return previewsMsg{job: staleIndexJob, previews: map[int64]transcript.PreviewLine{e.Offset: {Text: "stale"}}}
	})
	drive(t, a, func() tea.Msg { return bodyMsg{job: staleIndexJob, session: staleSession, key: key, text: "stale"} })
	if p.previews[e.Offset].Text == "stale" || p.bodies[key] == "stale" {
		t.Errorf("a superseded answer landed: preview %q, body %q", p.previews[e.Offset].Text, p.bodies[key])
	}
}

// A running search is cancelled by what supersedes it, a new query or
// another session, and its answer is dropped.
func TestSupersededSearchIsCancelled(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		supersede func(t *testing.T, a *App, rows [2]model.SessionRow) tea.Cmd
		check     func(t *testing.T, p *transcriptPane, rows [2]model.SessionRow)
	}{{
		name:      "a new query",
		supersede: func(t *testing.T, a *App, _ [2]model.SessionRow) tea.Cmd { return query(t, a, "go-draft") },
		check: func(t *testing.T, p *transcriptPane, _ [2]model.SessionRow) {
			if p.searchBusy || p.query != "go-draft" || len(p.matches) == 0 {
				t.Errorf("the new search: busy %v, query %q, %d matches", p.searchBusy, p.query, len(p.matches))
			}
		},
	}, {
		name: "another session",
		supersede: func(t *testing.T, a *App, rows [2]model.SessionRow) tea.Cmd {
			_, cmd := a.Update(openTranscriptMsg{row: rows[0]})
			return cmd
		},
		check: func(t *testing.T, p *transcriptPane, rows [2]model.SessionRow) {
			if p.ix == nil || p.ix.Path != rows[0].File || p.query != "" || p.searchBusy {
				t.Errorf("the other session: %v open, query %q, busy %v", p.ix != nil, p.query, p.searchBusy)
			}
		},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			a, rows, readers := gatedApp(t)
			p := a.transcript
			openNow(t, a, rows[1], readers[1])
			searchDone := runAside(query(t, a, "nowhere"))
			searchCtx := readers[1].search.next(t)

			next := tt.supersede(t, a, rows)
			if !errors.Is(searchCtx.Err(), context.Canceled) {
				t.Fatalf("the search kept running (ctx err %v)", searchCtx.Err())
			}
			drive(t, a, searchDone)
			if p.query == "nowhere" {
				t.Fatal("the cancelled search's answer was taken")
			}
			close(readers[0].index.release)
			close(readers[1].search.release)
			drive(t, a, next)
			tt.check(t, p, rows)
		})
	}
}
