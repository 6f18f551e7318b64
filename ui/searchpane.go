package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store/search"
)

// The Search screen: all memory as you type, over the on-disk index. The
// index is opened once, when the screen is first shown, and synced with
// the files in the background (a job on the Jobs screen) while searches
// already run over what it holds. A query runs in a command; while one
// runs, key presses only note the newest text, and it runs next: there is
// never more than one search in flight, and no result of an older query
// replaces a newer one's.

// searchLimit is how many hits a query lists: each hit returned costs a
// look at its text for the matching line (search's locator), so the
// screen asks for what a few pages show; the count is of all of them.
const searchLimit = 50

type (
	// indexOpenedMsg says the search index is open (or why not), and
	// why the index on disk is being built again, if it is (damaged, or
	// made by another version).
	indexOpenedMsg struct {
		err  error
		note string
	}
	// indexDamagedMsg asks the root to bring the index up to date: a
	// query found it damaged, and the sync sets it aside and builds it
	// again.
	indexDamagedMsg struct{}
	// memorySearchMsg is the answer to one query.
	memorySearchMsg struct {
		job   int
		query string
		res   *search.Results
		err   error
	}
	// openTranscriptAtMsg asks the root to show a transcript at a line
	// or at the first entry holding a text.
	openTranscriptAtMsg struct {
		file, sessionID string
		line            int
		text            string
	}
)

type searchPane struct {
	c    *Common
	jobs *int

	input  textinput.Model
	typing bool // the input has the keyboard

	opening, ready bool
	openErr        error
	note           string // why the index is being built again
	// syncJob is the job that brings the index in step with the files
	// (0 when none runs); syncErr its failure.
	syncJob int
	syncErr error

	want    string // the query as typed
	running bool   // a search is in flight
	runJob  int
	rerun   bool // run want again even if it is what is shown (a file changed)

	res   *search.Results
	shown string // the query res answers
	err   error

	cursor, offset int
	width, height  int

	// recalling: the screen shows recall, the "as the agent recalls"
	// mode (recall.go), whose input typing then means.
	recalling bool
	recall    *recallPane
}

func newSearchPane(c *Common, jobs *int, ro recallOptions) *searchPane {
	return &searchPane{c: c, jobs: jobs, input: steadyInput(c.Theme, "search: ", `words, "a phrase", path:memory type:decision i>=0.8`),
		recall: newRecallPane(c, jobs, ro)}
}

// toggleRecall switches between the keyword search and the search as
// the agent recalls; the words typed carry over to an empty input.
func (p *searchPane) toggleRecall() tea.Cmd {
	p.recalling = !p.recalling
	from, to := &p.input, &p.recall.input
	if !p.recalling {
		from, to = to, from
	}
	if to.Value() == "" {
		to.SetValue(from.Value())
	}
	from.Blur()
	p.typing = true
	return to.Focus()
}

func (p *searchPane) nextJob() int {
	*p.jobs++
	return *p.jobs
}

// activate is called when the screen is shown: the first time, it opens
// the index; the input takes the keyboard.
func (p *searchPane) activate() tea.Cmd {
	var cmds []tea.Cmd
	if !p.ready && !p.opening {
		p.opening, p.openErr = true, nil
		h := p.c.index
		cmds = append(cmds, func() tea.Msg {
			ix, err := h.get()
			if err != nil {
				return indexOpenedMsg{err: err}
			}
			return indexOpenedMsg{note: ix.RebuildReason()}
		})
	}
	if !p.typing && p.res == nil {
		p.typing = true
		cmds = append(cmds, p.input.Focus())
	}
	return tea.Batch(cmds...)
}

// opened takes the index's open; it reports whether it is ready, so the
// root starts the sync job.
func (p *searchPane) opened(msg indexOpenedMsg) (tea.Cmd, bool) {
	p.opening = false
	if msg.err != nil {
		p.openErr = msg.err
		return nil, false
	}
	p.ready, p.note = true, msg.note
	return p.run(), true
}

// syncWork brings the index in step with the files: the job the root
// starts when the index opens, and the Jobs screen's index build.
func syncWork(h *indexHolder) func(ctx context.Context, progress observer.ProgressFunc) (JobResult, error) {
	return func(ctx context.Context, progress observer.ProgressFunc) (JobResult, error) {
		ix, err := h.get()
		if err != nil {
			return nil, err
		}
		st, err := ix.Sync(ctx, func(pr search.Progress) {
			progress.Report(observer.Progress{Stage: "index", Done: pr.Bytes, Total: pr.BytesTotal, Unit: "bytes", Item: pr.Path})
		})
		if err != nil {
			return nil, err
		}
		return NewIndexResult(st, ix.Dir()), nil
	}
}

// synced takes the end of the sync job: what was typed meanwhile is
// searched again over the complete index.
func (p *searchPane) synced(err error) tea.Cmd {
	p.syncJob, p.syncErr = 0, err
	p.rerun = true
	return p.run()
}

// refresh runs the query again (a file was saved and re-indexed).
func (p *searchPane) refresh() tea.Cmd {
	p.rerun = true
	return p.run()
}

// run starts the search for what is typed, unless one is in flight (its
// answer starts the next).
func (p *searchPane) run() tea.Cmd {
	if p.running || !p.ready {
		return nil
	}
	q := p.want
	if strings.TrimSpace(q) == "" {
		p.res, p.shown, p.err, p.rerun = nil, "", nil, false
		return nil
	}
	if q == p.shown && !p.rerun {
		return nil
	}
	p.running, p.rerun = true, false
	p.runJob = p.nextJob()
	job, h := p.runJob, p.c.index
	return func() tea.Msg {
		ix, err := h.get()
		if err != nil {
			return memorySearchMsg{job: job, query: q, err: err}
		}
		res, err := ix.Search(context.Background(), q, search.SearchOptions{Limit: searchLimit, AsYouType: true})
		return memorySearchMsg{job: job, query: q, res: res, err: err}
	}
}

// Handle takes a query's answer.
func (p *searchPane) Handle(msg memorySearchMsg) tea.Cmd {
	if msg.job != p.runJob {
		return nil
	}
	p.running = false
	var qe *search.QueryError
	switch {
	case errors.As(msg.err, &qe):
		p.err = msg.err // keep the last hits while the query is unfinished
	case errors.Is(msg.err, search.ErrDamaged):
		p.err, p.res, p.rerun = msg.err, nil, true
		return func() tea.Msg { return indexDamagedMsg{} }
	case msg.err != nil:
		p.err, p.res = msg.err, nil
	default:
		if msg.query != p.shown {
			p.cursor, p.offset = 0, 0
		}
		p.res, p.shown, p.err = msg.res, msg.query, nil
		p.clamp()
	}
	return p.run() // the text typed meanwhile, if any
}

func (p *searchPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.input.SetWidth(max(10, w-10))
	p.recall.SetSize(w, h)
	p.clamp()
}

// rows of hits that fit: each hit is two lines under the input and the
// status line.
func (p *searchPane) page() int { return max(1, (p.height-2)/2) }

func (p *searchPane) hits() []search.Hit {
	if p.res == nil {
		return nil
	}
	return p.res.Hits
}

func (p *searchPane) clamp() {
	n := len(p.hits())
	p.cursor = max(0, min(p.cursor, n-1))
	p.offset = window(p.cursor, p.offset, p.page(), n)
}

// Selected is the hit under the cursor.
func (p *searchPane) Selected() (search.Hit, bool) {
	hits := p.hits()
	if len(hits) == 0 {
		return search.Hit{}, false
	}
	return hits[p.cursor], true
}

func (p *searchPane) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	if key.Matches(msg, k.RecallMode) {
		return p.toggleRecall(), true
	}
	if p.recalling {
		return p.recall.Update(msg, &p.typing)
	}
	if p.typing {
		switch msg.String() {
		case "up", "down", "pgup", "pgdown":
			p.cursor, _ = listMove(k, msg, p.cursor, p.page(), len(p.hits()))
			p.clamp()
			return nil, true
		case "enter":
			// A hit is chosen: the input lets go of the keyboard, so that
			// back from the editor j/k, the screen numbers and p work.
			p.typing = false
			p.input.Blur()
			return p.open(false), true
		}
		if key.Matches(msg, k.Back) {
			p.typing = false
			p.input.Blur()
			return nil, true
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		if v := p.input.Value(); v != p.want {
			p.want = v
			return tea.Batch(cmd, p.run()), true
		}
		return cmd, true
	}
	if cursor, ok := listMove(k, msg, p.cursor, p.page(), len(p.hits())); ok {
		p.cursor = cursor
		p.clamp()
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Search):
		p.typing = true
		return p.input.Focus(), true
	case key.Matches(msg, k.Open), key.Matches(msg, k.Edit):
		return p.open(false), true
	case key.Matches(msg, k.ExternalEdit):
		return p.open(true), true
	case key.Matches(msg, k.Promote):
		if h, ok := p.Selected(); ok && h.Kind != search.Message {
			src := promoteSource{path: h.Path, line: h.Line, agent: h.Agent}
			if h.Observation != nil {
				src.kind = h.Observation.Type
			}
			return promoteFrom(p.c, src), true
		}
		return nil, true
	case key.Matches(msg, k.Source):
		if h, ok := p.Selected(); ok && h.Observation != nil {
			return findSource(p.c, model.ObservationRow{Observation: *h.Observation}, h.Rel), true
		}
		return nil, true
	case key.Matches(msg, k.Copy):
		if h, ok := p.Selected(); ok {
			if h.SessionID != "" { // as the Transcript screen copies an event
				return copyText(fmt.Sprintf("%s#%s seq %d", h.Path, h.SessionID, h.Seq)), true
			}
			return copyText(fmt.Sprintf("%s:%d", h.Path, h.Line)), true
		}
		return nil, true
	}
	return nil, false
}

// open opens the selected hit: a memory file in an editor at its line, a
// transcript line on the Transcript screen.
func (p *searchPane) open(external bool) tea.Cmd {
	h, ok := p.Selected()
	if !ok {
		return nil
	}
	switch {
	case h.SessionID != "":
		// A SQLite-era session: its generations share the store's file, and
		// its entries are placed by seq.
		return func() tea.Msg { return openTranscriptAtMsg{sessionID: h.SessionID, line: int(h.Seq)} }
	case h.Kind == search.Message:
		return func() tea.Msg { return openTranscriptAtMsg{file: h.Path, line: h.Line} }
	}
	if external {
		return openExternal(p.c, h.Path, h.Line)
	}
	return func() tea.Msg { return openEditorMsg{path: h.Path, line: h.Line} }
}

func (p *searchPane) ShortHelp() []key.Binding {
	k := p.c.Keys
	if p.recalling {
		if p.typing {
			arrows := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move"))
			return []key.Binding{arrows, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "recall")), k.Back, k.RecallMode}
		}
		return p.recall.ShortHelp()
	}
	if p.typing {
		// j and k are letters of the query here: only the arrows move.
		arrows := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move"))
		return []key.Binding{arrows, k.Open, k.Back, k.Help}
	}
	return []key.Binding{k.Down, k.Open, k.ExternalEdit, k.Promote, k.Search, k.Copy, k.RecallMode, k.Help}
}

func (p *searchPane) FullHelp() [][]key.Binding {
	k := p.c.Keys
	if p.recalling {
		return p.recall.FullHelp()
	}
	return [][]key.Binding{k.listKeys(), {k.Search, k.Open, k.Edit, k.ExternalEdit, k.Promote, k.Source, k.Copy, k.RecallMode}}
}

func (p *searchPane) View() string {
	t := p.c.Theme
	if p.recalling {
		return p.recall.View()
	}
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	lines := []string{cut(p.input.View(), p.width), cut(p.statusLine(), p.width)}
	hits := p.hits()
	for i := p.offset; i < len(hits) && i < p.offset+p.page(); i++ {
		lines = append(lines, p.hitLines(hits[i], i == p.cursor)...)
	}
	if len(hits) == 0 && p.err == nil && p.ready && strings.TrimSpace(p.shown) == "" {
		lines = append(lines, "", t.Muted.Render(wrap(`Type to search the vault and every agent's MEMORY.md and memory/: words (all must occur in one section), "a phrase", -word to leave out, path:decisions, type:decision,lesson, i>=0.8. enter opens the hit in the editor at its line; esc leaves the input for j/k, E ($EDITOR), p (promote to MEMORY.md), y (copy path:line). ctrl+r searches as the agent recalls: OpenClaw's memory_search, replayed and explained.`, p.width)))
	}
	return block(strings.Join(lines, "\n"), p.width, p.height)
}

func (p *searchPane) statusLine() string {
	t := p.c.Theme
	var parts []string
	switch {
	case p.openErr != nil:
		return t.Error.Render("cannot open the search index: " + p.openErr.Error())
	case !p.ready:
		return t.Muted.Render("opening the search index…")
	case p.err != nil:
		parts = append(parts, t.Error.Render(p.err.Error()))
	case p.res != nil:
		n := len(p.res.Hits)
		s := model.Plural(p.res.Total, "hit", "hits")
		if n > 0 {
			s += fmt.Sprintf(" · match %d of %d", p.cursor+1, p.res.Total)
		}
		if uint64(n) < p.res.Total {
			s += fmt.Sprintf(" (the first %d listed)", n)
		}
		parts = append(parts, s)
	}
	if p.running {
		parts = append(parts, "searching…")
	}
	if p.note != "" {
		parts = append(parts, t.Error.Render(inert(p.note)))
	}
	if p.syncJob != 0 {
		parts = append(parts, "indexing changed files (searching what is indexed so far)")
	} else if p.syncErr != nil {
		parts = append(parts, t.Error.Render("the index could not be brought up to date: "+p.syncErr.Error()))
	}
	return t.Muted.Render(strings.Join(parts, " · "))
}

// hitLines draws a hit: where it is, then its line with the matches
// marked.
func (p *searchPane) hitLines(h search.Hit, selected bool) []string {
	t := p.c.Theme
	where := inert(h.Place())
	facts := fmt.Sprintf("%.2f", h.Score)
	if o := h.Observation; o != nil {
		facts += fmt.Sprintf(" · %s i=%s", o.Type, model.FormatScore(o.Importance))
	} else if h.Heading != "" {
		facts += " · § " + inert(h.Heading)
	}
	marker := "  "
	if selected {
		marker = "▸ "
	}
	head := marker + where + "  " + t.Muted.Render(facts)
	if selected {
		head = t.Selected.Render(marker+where) + "  " + t.Muted.Render(facts)
	}
	return []string{cut(head, p.width), cut("    "+highlight(t.Match, h.Snippet, h.Highlights), p.width)}
}

// highlight styles the byte spans of s. A tab is a space, as in the
// search command's text (one byte for one, so the spans hold): escaped, it
// read as \t; the other controls are escaped (inert).
func highlight(style interface{ Render(...string) string }, s string, spans []search.Span) string {
	s = strings.ReplaceAll(s, "\t", " ")
	var b strings.Builder
	pos := 0
	for _, sp := range spans {
		if sp.Start < pos || sp.End > len(s) {
			continue
		}
		b.WriteString(inert(s[pos:sp.Start]))
		b.WriteString(style.Render(inert(s[sp.Start:sp.End])))
		pos = sp.End
	}
	b.WriteString(inert(s[pos:]))
	return b.String()
}
