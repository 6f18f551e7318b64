package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store"
	"clawvault-tui/themes"
)

// JobResult is what a finished job leaves on the Jobs screen.
type JobResult interface {
	// Summary is one line: "7 candidates, 15.4 MB".
	Summary() string
	// Lines is the full result (a table, a report), one string a line.
	Lines(width int) []string
	// Link returns the session a result line names (a key or a file), if any.
	Link(line int) (string, bool)
}

// JobRunners start the jobs that live outside the ui package. A nil runner
// is a job this build does not have yet; the Jobs screen says so rather
// than pretend.
type JobRunners struct {
	// Sweep observes the given candidates.
	Sweep func(ctx context.Context, snap *store.Snapshot, candidates []observer.Candidate, progress observer.ProgressFunc) (JobResult, error)
	// Retention computes the retention plans (a dry run).
	Retention func(ctx context.Context, snap *store.Snapshot, progress observer.ProgressFunc) (JobResult, error)
	// Space measures where the agent stores' bytes go.
	Space func(ctx context.Context, snap *store.Snapshot, progress observer.ProgressFunc) (JobResult, error)
}

type jobState int

const (
	jobRunning jobState = iota
	jobDone
	jobFailed
	jobCancelled
)

type job struct {
	// id routes the job's messages (the app's job counter, shared with
	// scans and reads); num is the number the user sees: 1, 2, 3… for the
	// jobs of this screen.
	id       int
	num      int
	title    string
	started  time.Time
	ended    time.Time
	progress observer.Progress
	state    jobState
	err      error
	result   JobResult
	// lines is result.Lines at the pane's width, made when the job ends
	// and when the width changes, never in View.
	lines  []string
	cancel context.CancelFunc
	// writes: the job changes the workspace (a sweep moves cursors), so
	// the root rescans when it ends.
	writes bool
}

type (
	jobProgressMsg struct {
		id int
		p  observer.Progress
	}
	jobDoneMsg struct {
		id     int
		result JobResult
		err    error
	}
	// jobTickMsg redraws elapsed times while jobs run.
	jobTickMsg struct{}
	// showSessionMsg asks the root to select a session on the Sessions screen.
	showSessionMsg struct{ key string }
)

// jobsPane starts background jobs and keeps their results.
type jobsPane struct {
	c       *Common
	runners JobRunners
	group   *jobGroup
	jobs    []*job // newest first
	cursor  int
	// inResult is true while the cursor walks the selected job's result.
	inResult   bool
	resultLine int
	width      int
	height     int
	ticking    bool
	numbered   int // jobs started so far: the next one is numbered+1
}

func newJobsPane(c *Common, runners JobRunners) *jobsPane {
	return &jobsPane{c: c, runners: runners, group: newJobGroup()}
}

func (p *jobsPane) SetSize(w, h int) {
	if w != p.width {
		for _, j := range p.jobs {
			j.lines = resultLines(j.result, w)
		}
	}
	p.width, p.height = w, h
}

// resultLines are a result's lines as drawn: plain text, escaped (they
// name sessions, files and errors from disk).
func resultLines(r JobResult, width int) []string {
	if r == nil {
		return nil
	}
	lines := r.Lines(width)
	for i, l := range lines {
		lines[i] = inert(l)
	}
	return lines
}

// start records a new job and runs it; work reports progress through emit.
func (p *jobsPane) start(id int, title string, writes bool, work func(ctx context.Context, progress observer.ProgressFunc) (JobResult, error)) tea.Cmd {
	ctx, cancel := context.WithCancel(p.group.ctx)
	p.numbered++
	j := &job{id: id, num: p.numbered, title: title, started: p.c.Now(), cancel: cancel, writes: writes}
	p.jobs = append([]*job{j}, p.jobs...)
	p.cursor, p.inResult = 0, false
	group := p.group
	run := runTask(ctx, func(ctx context.Context, emit func(tea.Msg)) tea.Msg {
		if !group.enter() {
			return jobDoneMsg{id: id, err: context.Canceled} // the app is ending
		}
		defer group.leave()
		res, err := work(ctx, func(pr observer.Progress) { emit(jobProgressMsg{id: id, p: pr}) })
		return jobDoneMsg{id: id, result: res, err: err}
	})
	return tea.Batch(run, p.tick())
}

func (p *jobsPane) tick() tea.Cmd {
	if p.ticking {
		return nil
	}
	p.ticking = true
	return p.c.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return jobTickMsg{} })
}

func (p *jobsPane) find(id int) *job {
	for _, j := range p.jobs {
		if j.id == id {
			return j
		}
	}
	return nil
}

// stop cancels a running job; it shows as cancelled at once and ends when
// its goroutine returns.
func (j *job) stop() {
	if j.state == jobRunning {
		j.state = jobCancelled
		j.cancel()
	}
}

// active: the job's goroutine has not returned yet (it may have been
// cancelled already).
func (j *job) active() bool { return j.ended.IsZero() }

// active lists the jobs whose goroutines have not returned.
func (p *jobsPane) active() []*job {
	var out []*job
	for _, j := range p.jobs {
		if j.active() {
			out = append(out, j)
		}
	}
	return out
}

func (p *jobsPane) running() bool {
	for _, j := range p.jobs {
		if j.state == jobRunning {
			return true
		}
	}
	return false
}

// Handle takes the pane's async messages.
func (p *jobsPane) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case jobProgressMsg:
		if j := p.find(msg.id); j != nil {
			j.progress = msg.p
		}
	case jobDoneMsg:
		j := p.find(msg.id)
		if j == nil {
			return nil
		}
		j.ended = p.c.Now()
		j.result = msg.result
		j.lines = resultLines(msg.result, p.width)
		switch {
		case finished(msg.result):
			j.state = jobDone // the cancel came too late to stop anything
		case msg.err != nil && j.state == jobCancelled, msg.err != nil && strings.Contains(msg.err.Error(), context.Canceled.Error()):
			j.state = jobCancelled
		case msg.err != nil:
			j.state, j.err = jobFailed, msg.err
		default:
			j.state = jobDone
		}
	case jobTickMsg:
		p.ticking = false
		if p.running() {
			return p.tick()
		}
	}
	return nil
}

// dryRun starts ClawVault's selection over the snapshot, agent by agent.
func (p *jobsPane) dryRun(id int, snap *store.Snapshot) tea.Cmd {
	return p.start(id, "dry-run sweep", false, func(ctx context.Context, progress observer.ProgressFunc) (JobResult, error) {
		return dryRun(ctx, snap, progress)
	})
}

func dryRun(ctx context.Context, snap *store.Snapshot, progress observer.ProgressFunc) (JobResult, error) {
	res := &dryRunResult{}
	for i, a := range snap.Agents {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progress.Report(observer.Progress{Stage: "select", Done: int64(i), Total: int64(len(snap.Agents)), Unit: "agents", Item: a.AgentID})
		res.selections = append(res.selections, observer.SelectWithSQLite(snap, a.AgentID, snap.MinNewBytes))
	}
	return res, nil
}

// Candidates lists what a dry run over the snapshot selects, every agent.
func candidates(snap *store.Snapshot) []observer.Candidate {
	var out []observer.Candidate
	for _, a := range snap.Agents {
		sel := observer.SelectWithSQLite(snap, a.AgentID, snap.MinNewBytes)
		out = append(append(out, sel.Candidates...), sel.SQLite...)
	}
	return out
}

// Update handles a key; starting jobs is the root's (it has the snapshot).
func (p *jobsPane) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	if len(p.jobs) == 0 {
		return nil, false
	}
	j := p.jobs[min(p.cursor, len(p.jobs)-1)]
	if p.inResult {
		switch {
		case key.Matches(msg, k.Up):
			p.resultLine = max(0, p.resultLine-1)
		case key.Matches(msg, k.Down):
			p.resultLine = min(p.resultLine+1, max(0, len(j.lines)-1))
		case key.Matches(msg, k.Back):
			p.inResult = false
		case key.Matches(msg, k.Open):
			if j.result != nil {
				if link, ok := j.result.Link(p.resultLine); ok {
					return func() tea.Msg { return showSessionMsg{key: link} }, true
				}
			}
		default:
			return nil, false
		}
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(msg, k.Down):
		p.cursor = min(len(p.jobs)-1, p.cursor+1)
	case key.Matches(msg, k.Open):
		if j.result != nil {
			p.inResult, p.resultLine = true, 0
		}
	case key.Matches(msg, k.Cancel):
		j.stop()
	default:
		return nil, false
	}
	return nil, true
}

func (p *jobsPane) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.DryRun, k.Sweep, k.Retention, k.Space, k.IndexBuild, k.Cancel, k.Open, k.Help, k.Quit}
}

func (p *jobsPane) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{{k.DryRun, k.Sweep, k.Retention, k.Space, k.IndexBuild}, {k.Up, k.Down, k.Open, k.Cancel}}
}

// available lists each job with whether this build has it.
func (p *jobsPane) available() []string {
	k := p.c.Keys
	t := p.c.Theme
	item := func(b key.Binding, ok bool, why string) string {
		s := t.HelpKey.Render(b.Help().Key) + " " + b.Help().Desc
		if !ok {
			s = t.Muted.Render(b.Help().Key + " " + b.Help().Desc + " (" + why + ")")
		}
		return s
	}
	return []string{
		item(k.DryRun, true, ""),
		p.sweepItem(item),
		item(k.Retention, p.runners.Retention != nil, "not built yet"),
		item(k.Space, p.runners.Space != nil, "not built yet"),
		item(k.IndexBuild, true, ""),
	}
}

// sweepItem is the sweep's key, disabled with the reason when this build
// or the session's role has none.
func (p *jobsPane) sweepItem(item func(key.Binding, bool, string) string) string {
	switch {
	case p.runners.Sweep == nil:
		return item(p.c.Keys.Sweep, false, "not built yet")
	case p.c.Caps.Sweep != "":
		return item(p.c.Keys.Sweep, false, p.c.Caps.Sweep)
	}
	return item(p.c.Keys.Sweep, true, "")
}

func (p *jobsPane) View() string {
	t := p.c.Theme
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	lines := []string{cut(strings.Join(p.available(), "   "), p.width), ""}
	if len(p.jobs) == 0 {
		lines = append(lines, t.Muted.Render("No jobs yet. Start one with the keys above."))
		return block(strings.Join(lines, "\n"), p.width, p.height)
	}
	listH := min(len(p.jobs), max(3, p.height/3))
	first := window(p.cursor, 0, listH, len(p.jobs))
	for i := first; i < first+listH && i < len(p.jobs); i++ {
		lines = append(lines, p.jobLine(p.jobs[i], i == p.cursor && !p.inResult))
	}
	lines = append(lines, t.Border.Render(strings.Repeat("─", p.width)))
	lines = append(lines, p.resultView(p.jobs[p.cursor], p.height-len(lines))...)
	return block(strings.Join(lines, "\n"), p.width, p.height)
}

func (p *jobsPane) jobLine(j *job, selected bool) string {
	t := p.c.Theme
	end := j.ended
	if end.IsZero() { // running, or cancelled and not yet stopped
		end = p.c.Now()
	}
	elapsed := max(0, end.Sub(j.started)).Round(10 * time.Millisecond)
	var state string
	switch j.state {
	case jobRunning:
		state = t.BadgeCandidate.Render("running ") + progressBar(t, j.progress, 16) + " " + progressText(j.progress)
	case jobDone:
		state = t.BadgeOK.Render("done ") + summary(j)
	case jobFailed:
		state = t.Error.Render("failed ") + inert(j.err.Error())
	case jobCancelled:
		state = t.BadgeStale.Render("cancelled")
		if j.result != nil {
			state += " " + summary(j)
		}
	}
	line := fmt.Sprintf("#%-3d %-20s %8s  %s", j.num, j.title, elapsed, state)
	if selected {
		return t.Selected.Render(fit(line, p.width))
	}
	return cut(line, p.width)
}

// finished reports a result whose job did all its work although a cancel
// reached it (a sweep cancelled while it committed).
func finished(r JobResult) bool {
	f, ok := r.(interface{ Finished() bool })
	return ok && f.Finished()
}

func summary(j *job) string {
	if j.result == nil {
		return ""
	}
	return inert(j.result.Summary())
}

func progressText(pr observer.Progress) string {
	s := pr.Stage
	if pr.Total > 0 {
		s += fmt.Sprintf(" %d/%d %s", pr.Done, pr.Total, pr.Unit)
		if pr.Unit == "bytes" {
			s = fmt.Sprintf("%s %s/%s", pr.Stage, model.Bytes(pr.Done), model.Bytes(pr.Total))
		}
	}
	if pr.Item != "" {
		s += " · " + inert(pr.Item)
	}
	return s
}

func progressBar(th *themes.Theme, pr observer.Progress, width int) string {
	if pr.Total <= 0 {
		return th.GaugeEmpty.Render(strings.Repeat("░", width))
	}
	filled := int(float64(pr.Done) / float64(pr.Total) * float64(width))
	filled = max(0, min(width, filled))
	return th.GaugeFill.Render(strings.Repeat("█", filled)) + th.GaugeEmpty.Render(strings.Repeat("░", width-filled))
}

func (p *jobsPane) resultView(j *job, height int) []string {
	t := p.c.Theme
	if j.result == nil {
		switch j.state {
		case jobFailed:
			return strings.Split(wrap(t.Error.Render(inert(j.err.Error())), p.width), "\n")
		case jobRunning:
			return []string{t.Muted.Render("running… x cancels")}
		}
		return nil
	}
	lines := j.lines
	if len(lines) == 0 {
		return nil
	}
	if !p.inResult {
		out := make([]string, 0, height)
		for i := 0; i < height && i < len(lines); i++ {
			out = append(out, cut(lines[i], p.width))
		}
		return out
	}
	// The selected line is drawn whole, wrapped, the others cut to a row.
	whole := strings.Split(wrap(lines[p.resultLine], p.width), "\n")
	whole = whole[:min(len(whole), max(1, height))]
	first := window(p.resultLine, 0, max(1, height-len(whole)+1), len(lines))
	var out []string
	for i := first; len(out) < height && i < len(lines); i++ {
		if i != p.resultLine {
			out = append(out, cut(lines[i], p.width))
			continue
		}
		for _, l := range whole {
			out = append(out, t.Selected.Render(fit(l, p.width)))
		}
	}
	return out[:min(len(out), height)]
}

// dryRunResult is the candidate list of a dry-run sweep.
type dryRunResult struct {
	selections []observer.Selection
	// links maps result lines to session keys.
	links map[int]string
}

func (r *dryRunResult) Summary() string {
	n, bytes, checked := 0, int64(0), 0
	for _, s := range r.selections {
		n += len(s.Candidates) + len(s.SQLite)
		bytes += s.NewBytes()
		checked += s.Checked + s.SQLiteChecked
		for _, c := range s.SQLite {
			bytes += c.NewBytes
		}
	}
	return fmt.Sprintf("%d of %s would be observed, %s new", n, model.Plural(checked, "session", "sessions"), model.Bytes(bytes))
}

func (r *dryRunResult) Lines(width int) []string {
	r.links = map[int]string{}
	var out []string
	for _, s := range r.selections {
		out = append(out, fmt.Sprintf("agent %s: %s of %s ClawVault would check", s.Agent, model.Plural(len(s.Candidates), "candidate", "candidates"), model.Plural(s.Checked, "session", "sessions")))
		for _, c := range s.Candidates {
			r.links[len(out)] = c.SessionKey
			out = append(out, fmt.Sprintf("  %-*s [%s] Δ%s (threshold %s)", max(20, width-48), c.SessionKey, c.Source, model.Bytes(c.NewBytes), model.Bytes(c.ThresholdBytes)))
		}
		if s.SQLiteChecked > 0 {
			out = append(out, fmt.Sprintf("agent %s's SQLite-era store: %s of %d sessions ClawVault cannot read (clawvault-tui observes them by seq)", s.Agent, model.Plural(len(s.SQLite), "candidate", "candidates"), s.SQLiteChecked))
		}
		for _, c := range s.SQLite {
			r.links[len(out)] = c.SessionKey
			out = append(out, fmt.Sprintf("  %-*s [%s] Δ%s (threshold %s), %s", max(20, width-48), c.SessionKey, c.Source, model.Bytes(c.NewBytes), model.Bytes(c.ThresholdBytes), model.Plural(c.Seq.Events, "event", "events")))
		}
	}
	return out
}

func (r *dryRunResult) Link(line int) (string, bool) {
	k, ok := r.links[line]
	return k, ok
}
