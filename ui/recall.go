package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/memsearch"
)

// The Search screen's second mode, "as the agent recalls": OpenClaw's
// memory_search replayed for one agent (store/memsearch). A query runs
// on enter, not as you type: it costs an embedding call, which the
// session caches. The results show their score breakdown; the selected
// one's file is explained, and its related memories (nearest chunks by
// the index's own vectors) are listed on demand. f lists every file
// with why it is or is not returned. The embedding shows progress and esc
// cancels it.

type (
	// recallProgressMsg is a step of a replay (vectors, embedding).
	recallProgressMsg struct {
		job int
		p   memsearch.Progress
	}
	// recallDoneMsg is a replay's report.
	recallDoneMsg struct {
		job int
		rep *memsearch.Report
		err error
	}
	// relatedDoneMsg is the related memories of a chunk.
	relatedDoneMsg struct {
		job  int
		of   string
		hits []memsearch.RelatedHit
		err  error
	}
)

// recallOptions are what the mode reads the workspace with.
type recallOptions struct {
	agents     []store.Agent // those with a SQLite store
	configPath string
	getenv     func(string) string
	now        func() time.Time
	http       *http.Client
}

type recallPane struct {
	c    *Common
	jobs *int
	opt  recallOptions
	s    *memsearch.Session

	input textinput.Model
	agent int

	running  bool
	runJob   int
	cancel   context.CancelFunc
	progress memsearch.Progress

	rep *memsearch.Report
	err error

	files          bool // the list is every file, not the results
	cursor, offset int

	related    []memsearch.RelatedHit
	relatedOf  string // the chunk (path:lines) they are related to
	relatedJob int
	relatedErr error

	width, height int
}

func newRecallPane(c *Common, jobs *int, opt recallOptions) *recallPane {
	s := memsearch.NewSession()
	s.HTTP = opt.http
	p := &recallPane{c: c, jobs: jobs, opt: opt, s: s, input: steadyInput(c.Theme, "recall: ", "what the agent would ask its memory; enter runs it")}
	for i, a := range opt.agents {
		if a.ID == c.DefaultAgent {
			p.agent = i
		}
	}
	return p
}

func (p *recallPane) close() error { return p.s.Close() }

func (p *recallPane) nextJob() int {
	*p.jobs++
	return *p.jobs
}

// agentName is the agent searched, "" when none has a store.
func (p *recallPane) agentName() string {
	if len(p.opt.agents) == 0 {
		return ""
	}
	return p.opt.agents[p.agent].ID
}

// run replays the query: progress comes as it goes; a newer run
// supersedes (and cancels) an older one.
func (p *recallPane) run() tea.Cmd {
	q := strings.TrimSpace(p.input.Value())
	if q == "" || len(p.opt.agents) == 0 {
		return nil
	}
	if p.cancel != nil {
		p.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.running, p.cancel, p.err, p.progress = true, cancel, nil, memsearch.Progress{}
	p.runJob = p.nextJob()
	job, s := p.runJob, p.s
	req := memsearch.Request{Agent: p.opt.agents[p.agent], ConfigPath: p.opt.configPath, Getenv: p.opt.getenv,
		Query: q, ExplainAll: true, Now: p.opt.now()}
	return runTask(ctx, func(ctx context.Context, emit func(tea.Msg)) tea.Msg {
		req.Progress = func(pr memsearch.Progress) { emit(recallProgressMsg{job: job, p: pr}) }
		rep, err := s.Replay(ctx, req)
		return recallDoneMsg{job: job, rep: rep, err: err}
	})
}

// Handle takes a replay's progress and report, and related memories.
func (p *recallPane) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case recallProgressMsg:
		if msg.job == p.runJob {
			p.progress = msg.p
		}
	case recallDoneMsg:
		if msg.job != p.runJob {
			return nil
		}
		p.running, p.cancel = false, nil
		switch {
		case errors.Is(msg.err, context.Canceled):
			p.err = errors.New("cancelled")
		case msg.err != nil:
			p.err = msg.err
		default:
			p.rep, p.cursor, p.offset, p.related, p.relatedOf = msg.rep, 0, 0, nil, ""
		}
	case relatedDoneMsg:
		if msg.job == p.relatedJob {
			p.related, p.relatedOf, p.relatedErr = msg.hits, msg.of, msg.err
		}
	}
	return nil
}

// shown are the entries the results list shows: what the agent gets, or
// the keyword-only ranking offered when it gets nothing.
func (p *recallPane) shown() []*recall.Entry {
	if p.rep == nil {
		return nil
	}
	if len(p.rep.Results) == 0 && p.rep.Status != memsearch.StatusOK && p.rep.Status != memsearch.StatusKeywordOnly {
		return p.rep.Fallback
	}
	return p.rep.Results
}

func (p *recallPane) rows() int {
	if p.files {
		if p.rep == nil {
			return 0
		}
		return len(p.rep.Explain)
	}
	return len(p.shown())
}

func (p *recallPane) layout() splitLayout {
	return splitLayout{width: p.width, height: p.height, sideFrom: 110, minDetail: 6, maxDetail: 12}
}

// page is how many rows fit: results take two lines, files one.
func (p *recallPane) page() int {
	h := p.layout().listHeight(2)
	if !p.files {
		h /= 2
	}
	return max(1, h)
}

func (p *recallPane) clamp() {
	n := p.rows()
	p.cursor = max(0, min(p.cursor, n-1))
	p.offset = window(p.cursor, p.offset, p.page(), n)
}

func (p *recallPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.input.SetWidth(max(10, w-10))
	p.clamp()
}

// selected is the path, lines and chunk of the row under the cursor.
func (p *recallPane) selected() (path string, start, end int, chunk string, ok bool) {
	if p.files {
		if p.rep == nil || p.cursor >= len(p.rep.Explain) {
			return "", 0, 0, "", false
		}
		e := p.rep.Explain[p.cursor]
		if e.Chunk != nil {
			return e.Path, e.Chunk.StartLine, e.Chunk.EndLine, "", true
		}
		return e.Path, 1, 1, "", true
	}
	es := p.shown()
	if p.cursor >= len(es) {
		return "", 0, 0, "", false
	}
	e := es[p.cursor]
	return e.Path, e.StartLine, e.EndLine, e.ID, true
}

// explanation is the explanation of the selected row's file.
func (p *recallPane) explanation() (recall.Explanation, bool) {
	path, _, _, _, ok := p.selected()
	if !ok {
		return recall.Explanation{}, false
	}
	for _, e := range p.rep.Explain {
		if e.Path == path {
			return e, true
		}
	}
	return recall.Explanation{}, false
}

// Update handles a key of the mode. typing is the Search screen's "the
// input has the keyboard".
func (p *recallPane) Update(msg tea.KeyPressMsg, typing *bool) (tea.Cmd, bool) {
	k := p.c.Keys
	if *typing {
		return p.typingKey(msg, typing)
	}
	if cursor, ok := listMove(k, msg, p.cursor, p.page(), p.rows()); ok {
		p.cursor = cursor
		p.clamp()
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Back) && p.running:
		p.cancel()
		return nil, true
	case key.Matches(msg, k.Search):
		*typing = true
		return p.input.Focus(), true
	case key.Matches(msg, k.Open), key.Matches(msg, k.Edit):
		return p.open(), true
	case key.Matches(msg, k.RecallFiles):
		p.files = !p.files
		p.cursor, p.offset = 0, 0
		return nil, true
	case key.Matches(msg, k.Related):
		return p.loadRelated(), true
	case key.Matches(msg, k.Agent) && len(p.opt.agents) > 1:
		p.agent = (p.agent + 1) % len(p.opt.agents)
		p.rep = nil
		return p.run(), true
	case key.Matches(msg, k.Copy):
		if path, start, _, _, ok := p.selected(); ok {
			return copyText(fmt.Sprintf("%s:%d", path, start)), true
		}
		return nil, true
	}
	return nil, false
}

func (p *recallPane) typingKey(msg tea.KeyPressMsg, typing *bool) (tea.Cmd, bool) {
	k := p.c.Keys
	switch {
	case msg.String() == "enter":
		*typing = false
		p.input.Blur()
		return p.run(), true
	case key.Matches(msg, k.Back):
		*typing = false
		p.input.Blur()
		if p.running {
			p.cancel()
		}
		return nil, true
	case msg.String() == "up" || msg.String() == "down":
		p.cursor, _ = listMove(k, msg, p.cursor, p.page(), p.rows())
		p.clamp()
		return nil, true
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return cmd, true
}

// open opens the selected chunk's file in the editor at its first line.
func (p *recallPane) open() tea.Cmd {
	path, start, _, _, ok := p.selected()
	if !ok || len(p.opt.agents) == 0 {
		return nil
	}
	abs := path
	if !filepath.IsAbs(path) {
		abs = filepath.Join(p.opt.agents[p.agent].Workspace, filepath.FromSlash(path))
	}
	return func() tea.Msg { return openEditorMsg{path: abs, line: max(1, start)} }
}

// loadRelated asks for the memories nearest to the selected chunk (a
// file's, in the files list).
func (p *recallPane) loadRelated() tea.Cmd {
	path, start, end, chunk, ok := p.selected()
	if !ok || len(p.opt.agents) == 0 {
		return nil
	}
	p.relatedJob = p.nextJob()
	job, s := p.relatedJob, p.s
	req := memsearch.RelatedRequest{Agent: p.opt.agents[p.agent], ChunkID: chunk, Limit: 8}
	of := fmt.Sprintf("%s:%d-%d", path, start, end)
	if chunk == "" {
		req.Path, of = path, path
	}
	p.related, p.relatedOf, p.relatedErr = nil, of, nil
	return func() tea.Msg {
		hits, err := s.Related(context.Background(), req)
		return relatedDoneMsg{job: job, of: of, hits: hits, err: err}
	}
}

func (p *recallPane) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Down, k.Open, k.Search, k.RecallFiles, k.Related, k.RecallMode, k.Help}
}

func (p *recallPane) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{k.listKeys(), {k.Search, k.Open, k.Edit, k.RecallFiles, k.Related, k.Agent, k.Copy, k.RecallMode}}
}
