package ui

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/themes"
)

// sortMode orders the session list.
type sortMode int

const (
	sortUrgency sortMode = iota // worst diagnosis, then most unobserved bytes
	sortPending
	sortRatio // pending ÷ threshold
	sortSize
	sortAge // most recently modified first
	sortModes
)

func (s sortMode) String() string {
	return [...]string{"urgency", "pending", "pending÷threshold", "size", "age"}[s]
}

// openTranscriptMsg asks the root to open a session's transcript.
type openTranscriptMsg struct{ row model.SessionRow }

// sessionsPane lists every session with its pending bytes against the
// threshold, and explains the selected one. Only the visible window of
// rows is rendered, so 10,000 sessions cost what 30 do.
type sessionsPane struct {
	c      *Common
	rows   []model.SessionRow
	view   []int // rows shown, in order: indexes into rows
	agents []string
	agent  string // "" = all agents
	sort   sortMode
	filter textinput.Model
	// filtering is true while the filter has the keyboard.
	filtering bool

	cursor, offset int
	// detailScroll is the first line of the detail shown; it goes back to
	// the top when the selection moves.
	detailScroll int
	layout       splitLayout
	now          time.Time
	// memoryIndex says, per agent, how its memory search index compares
	// with its memory files (agents with a SQLite-era store).
	memoryIndex map[string]string
	// storeWarnings say, per agent, what is wrong with its session stores.
	storeWarnings map[string][]string
	// keyLen is longestAgentKey of the view, measured when it changes.
	keyLen int
}

func newSessionsPane(c *Common) *sessionsPane {
	return &sessionsPane{c: c, filter: steadyInput(c.Theme, "/", "filter: key, label, file, code"),
		layout: splitLayout{sideFrom: 150, minDetail: 5, maxDetail: 12}}
}

// SetRows replaces the rows, keeping the selection on the same file.
func (p *sessionsPane) SetRows(rows []model.SessionRow, now time.Time) {
	keep := p.selectedFile()
	p.rows, p.now = rows, now
	if p.memoryIndex == nil {
		p.memoryIndex = map[string]string{}
	}
	seen := map[string]bool{}
	p.agents = p.agents[:0]
	for _, r := range rows {
		if !seen[r.Agent] {
			seen[r.Agent] = true
			p.agents = append(p.agents, r.Agent)
		}
	}
	slices.Sort(p.agents)
	p.refresh(keep)
}

func (p *sessionsPane) selectedFile() string {
	if r, ok := p.Selected(); ok {
		return rowIdentity(r)
	}
	return ""
}

// rowIdentity tells rows apart across rescans: the file and key, and the
// session id (the generations of a SQLite-era key share the store's file).
func rowIdentity(r model.SessionRow) string {
	return r.File + "\x00" + r.Key + "\x00" + r.SessionID
}

// Select moves the selection to the row of a session key or file.
func (p *sessionsPane) Select(keyOrFile string) bool {
	for i, idx := range p.view {
		if r := p.rows[idx]; r.DisplayKey() == keyOrFile || r.File == keyOrFile || r.CursorID == keyOrFile || r.SessionID == keyOrFile {
			p.cursor = i
			p.clamp()
			return true
		}
	}
	return false
}

// refresh recomputes the filtered, sorted view, keeping a selection.
func (p *sessionsPane) refresh(keep string) {
	needle := strings.ToLower(strings.TrimSpace(p.filter.Value()))
	p.view = p.view[:0]
	for i := range p.rows {
		r := &p.rows[i]
		if p.agent != "" && r.Agent != p.agent {
			continue
		}
		if needle != "" && !strings.Contains(searchText(r), needle) {
			continue
		}
		p.view = append(p.view, i)
	}
	slices.SortStableFunc(p.view, func(a, b int) int { return p.compare(&p.rows[a], &p.rows[b]) })
	p.keyLen = p.longestAgentKey()
	p.cursor = 0
	for i, idx := range p.view {
		r := p.rows[idx]
		if keep != "" && rowIdentity(r) == keep {
			p.cursor = i
		}
	}
	p.clamp()
}

func searchText(r *model.SessionRow) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(r.DisplayKey()))
	b.WriteByte(' ')
	b.WriteString(strings.ToLower(r.Label))
	b.WriteByte(' ')
	b.WriteString(strings.ToLower(filepath.Base(r.File)))
	for _, d := range r.Diagnosis {
		b.WriteByte(' ')
		b.WriteString(string(d.Code))
	}
	return b.String()
}

func (p *sessionsPane) compare(a, b *model.SessionRow) int {
	switch p.sort {
	case sortPending:
		return cmp.Compare(b.Selection.NewBytes, a.Selection.NewBytes)
	case sortRatio:
		return cmp.Compare(ratio(*b), ratio(*a))
	case sortSize:
		return cmp.Compare(b.Size, a.Size)
	case sortAge:
		return b.ModTime.Compare(a.ModTime)
	}
	if c := cmp.Compare(severity(*b), severity(*a)); c != 0 {
		return c
	}
	return cmp.Compare(b.Selection.NewBytes, a.Selection.NewBytes)
}

func severity(r model.SessionRow) int {
	s := 0
	for _, d := range r.Diagnosis {
		s = max(s, d.Code.Severity())
	}
	return s
}

func ratio(r model.SessionRow) float64 {
	if r.Selection.ThresholdBytes == 0 {
		return 0
	}
	return float64(r.Selection.NewBytes) / float64(r.Selection.ThresholdBytes)
}

// Selected returns the selected row, if any.
func (p *sessionsPane) Selected() (model.SessionRow, bool) {
	if p.cursor < len(p.view) {
		return p.rows[p.view[p.cursor]], true
	}
	return model.SessionRow{}, false
}

func (p *sessionsPane) SetSize(w, h int) {
	p.layout.width, p.layout.height = w, h
	p.filter.SetWidth(max(10, w-4))
	p.clamp()
}

// headLines are the lines above the table rows: the agent/sort line, the
// filter when it is shown, and the column headings.
func (p *sessionsPane) headLines() int {
	if p.filtering || p.filter.Value() != "" {
		return 3
	}
	return 2
}

// listHeight is the number of table rows visible.
func (p *sessionsPane) listHeight() int {
	return max(1, p.layout.listHeight(0)-p.headLines())
}

func (p *sessionsPane) clamp() {
	p.cursor = max(0, min(p.cursor, len(p.view)-1))
	p.offset = window(p.cursor, p.offset, p.listHeight(), len(p.view))
}

// Update handles a key; it reports whether the key was used.
func (p *sessionsPane) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	if p.filtering {
		switch {
		case msg.String() == "enter":
			p.filtering = false
			p.filter.Blur()
		case key.Matches(msg, k.Back):
			p.filtering = false
			p.filter.Blur()
			p.filter.SetValue("")
			p.refresh(p.selectedFile())
		default:
			var cmd tea.Cmd
			p.filter, cmd = p.filter.Update(msg)
			p.refresh(p.selectedFile())
			return cmd, true
		}
		p.clamp()
		return nil, true
	}
	if cursor, ok := listMove(k, msg, p.cursor, p.listHeight(), len(p.view)); ok {
		p.cursor, p.detailScroll = cursor, 0
		p.clamp()
		return nil, true
	}
	switch {
	case key.Matches(msg, k.DetailDown), key.Matches(msg, k.DetailUp):
		h := p.layout.detailHeight(0)
		n := max(1, h/2)
		if key.Matches(msg, k.DetailUp) {
			n = -n
		}
		p.detailScroll = scrollBy(p.detailScroll, n, len(p.detailLines(p.layout.detailWidth())), h)
	case key.Matches(msg, k.Filter):
		p.filtering = true
		p.clamp()
		return p.filter.Focus(), true
	case key.Matches(msg, k.Back) && p.filter.Value() != "":
		p.filter.SetValue("")
		p.refresh(p.selectedFile())
	case key.Matches(msg, k.Sort):
		p.sort = (p.sort + 1) % sortModes
		p.refresh(p.selectedFile())
	case key.Matches(msg, k.Agent):
		p.agent = nextAgent(p.agents, p.agent)
		p.refresh(p.selectedFile())
	case key.Matches(msg, k.Open):
		if r, ok := p.Selected(); ok {
			return func() tea.Msg { return openTranscriptMsg{row: r} }, true
		}
	case key.Matches(msg, k.Copy):
		if r, ok := p.Selected(); ok {
			return copyText(copyTarget(r)), true
		}
	default:
		return nil, false
	}
	p.clamp()
	return nil, true
}

// copyTarget is what y copies for a session: its id, else its file.
func copyTarget(r model.SessionRow) string {
	if r.SessionID != "" {
		return r.SessionID
	}
	return r.File
}

func nextAgent(agents []string, cur string) string {
	if cur == "" {
		if len(agents) > 0 {
			return agents[0]
		}
		return ""
	}
	i := slices.Index(agents, cur)
	if i < 0 || i == len(agents)-1 {
		return ""
	}
	return agents[i+1]
}

// Scroll moves the selection by n rows (mouse wheel).
func (p *sessionsPane) Scroll(n int) {
	p.cursor += n
	p.detailScroll = 0
	p.clamp()
}

// Click selects the row at line y of the pane (0 is its first line).
func (p *sessionsPane) Click(x, y int) {
	row := y - p.headLines()
	if row < 0 || row >= p.listHeight() || x >= p.layout.listWidth() {
		return
	}
	if i := p.offset + row; i < len(p.view) {
		p.cursor, p.detailScroll = i, 0
	}
}

func (p *sessionsPane) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Down, k.Open, k.Filter, k.Sort, k.Agent, k.Copy, k.NextScreen, k.Help, k.Quit}
}

func (p *sessionsPane) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{
		k.listKeys(),
		{k.Open, k.Filter, k.Sort, k.Agent, k.Copy, k.Rescan, k.DetailDown, k.DetailUp},
	}
}

// column widths of the table; the key column takes what is left.
const (
	colMark  = 2
	colLabel = 14
	colSize  = 9
	colGauge = 10
	colPct   = 6
	// colState is the fewest cells the state column (the codes) keeps.
	colState = 10
)

// sessionColumns are the table's columns at a width. A narrow terminal
// drops the label first (the detail names it; below 100 columns), then
// the size and the gauge (below 64), never the percentage, the state or
// the part of a key that tells rows apart.
type sessionColumns struct {
	key                int // the badge, a space and the key
	label, size, gauge bool
}

func columnsFor(width int) sessionColumns {
	c := sessionColumns{label: width >= 100, size: width >= 64, gauge: width >= 64}
	fixed := colMark + 1 + colPct + 1
	if c.label {
		fixed += colLabel + 1
	}
	if c.size {
		fixed += colSize + 1
	}
	if c.gauge {
		fixed += colGauge + 1
	}
	codes := max(colState, (width-fixed)/3)
	c.key = max(12, width-fixed-codes)
	return c
}

// head is the line of column names.
func (c sessionColumns) head() string {
	s := strings.Repeat(" ", colMark) + padRight("SESSION", c.key)
	if c.label {
		s += " " + padRight("LABEL", colLabel)
	}
	if c.size {
		s += " " + padLeft("SIZE", colSize)
	}
	pct := "PEND"
	if c.gauge {
		s += " " + padRight("PENDING", colGauge)
		pct = ""
	}
	return s + " " + padLeft(pct, colPct) + " STATE"
}

func (p *sessionsPane) View() string {
	t := p.c.Theme
	if p.layout.width <= 0 || p.layout.height <= 0 {
		return ""
	}
	lw := p.layout.listWidth()
	var lines []string
	agent := "all agents"
	if p.agent != "" {
		agent = "agent " + inert(p.agent)
	}
	info := fmt.Sprintf("%s · %d of %s · sorted by %s", agent, len(p.view), model.Plural(len(p.rows), "session", "sessions"), p.sort)
	lines = append(lines, t.Muted.Render(cut(info, lw)))
	if p.filtering || p.filter.Value() != "" {
		lines = append(lines, cut(p.filter.View(), lw))
	}
	cols := columnsFor(lw)
	lines = append(lines, t.Header.Render(cut(cols.head(), lw)))
	h := p.listHeight()
	for i := p.offset; i < p.offset+h; i++ {
		if i < len(p.view) {
			lines = append(lines, p.renderRow(i, cols, lw))
		} else if i == 0 {
			lines = append(lines, t.Muted.Render("no sessions match"))
		} else {
			lines = append(lines, "")
		}
	}
	dh := p.layout.detailHeight(0)
	detail := scrolled(t, p.detailLines(p.layout.detailWidth()), p.detailScroll, dh, p.c.Keys.DetailDown)
	return p.layout.join(strings.Join(lines, "\n"), detail, t.Border, 0)
}

func (p *sessionsPane) renderRow(i int, cols sessionColumns, width int) string {
	t := p.c.Theme
	r := p.rows[p.view[i]]
	selected := i == p.cursor
	mark := "  "
	if selected {
		mark = "▸ "
	}
	badge, badgeStyle := rowBadge(t, r)
	line := mark + badgeStyle.Render(badge) + " " + padRight(p.keyText(r, cols.key-2), cols.key-2)
	if cols.label {
		line += " " + padRight(ansi.Truncate(inert(r.Label), colLabel, "…"), colLabel)
	}
	if cols.size {
		size := "missing"
		if r.Exists {
			size = model.Bytes(r.Size)
		}
		line += " " + padLeft(size, colSize)
	}
	gauge, pct := gauge(t, r)
	if cols.gauge {
		line += " " + gauge
	}
	line += " " + padLeft(pct, colPct) + " "
	codes := strings.Join(codeList(r), " ")
	rest := max(0, width-ansi.StringWidth(line))
	line = ansi.Truncate(line+ansi.Truncate(codes, rest, "…"), width, "")
	if selected {
		return t.Selected.Render(fit(ansi.Strip(line), width))
	}
	return t.Row.Render(line)
}

// keyText is the row's key cut to width by shortKey; a file with no key
// ("(deleted-archive) 6261183a-….jsonl.deleted.…") keeps its head, where
// its session id is.
func (p *sessionsPane) keyText(r model.SessionRow, width int) string {
	if r.DisplayKey() == "" {
		return ansi.Truncate(displayKey(r), width, "…")
	}
	return shortKey(displayKey(r), p.agent, width, p.keyLen > width)
}

// padRight and padLeft pad s with spaces to width cells (as drawn, which
// fmt's widths in runes are not).
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-ansi.StringWidth(s)))
}

func padLeft(s string, width int) string {
	return strings.Repeat(" ", max(0, width-ansi.StringWidth(s))) + s
}

// shortKey fits a session key (or a file's label) into width cells,
// keeping what tells rows apart. Keys are shown whole when every key of
// the list fits (strip is false); else they lose the prefix they all
// share ("agent:", or "agent:<id>:" when the list shows one agent), and
// one still too long loses its middle, keeping its head and its tail
// (the peer, the topic, the generation).
func shortKey(s, agent string, width int, strip bool) string {
	if strip {
		if rest, ok := strings.CutPrefix(s, "agent:"); ok {
			s = rest
			if agent != "" {
				s = strings.TrimPrefix(s, agent+":")
			}
		}
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return elideMiddle(s, width)
}

// elideMiddle keeps the head of s, up to a separator within half the
// width, and as much of its tail as fits, from a separator when one is
// near, with "…" between.
func elideMiddle(s string, width int) string {
	if width < 8 {
		return ansi.Truncate(s, width, "…")
	}
	head := ansi.Truncate(s, (width-1)/2, "")
	if i := strings.LastIndexAny(head, ":-. "); i >= 0 {
		head = head[:i+1]
	}
	room := width - ansi.StringWidth(head) - 1
	tail := ansi.TruncateLeft(s, ansi.StringWidth(s)-room, "")
	if i := strings.IndexAny(tail, ":-. "); i >= 0 && i < len(tail)/3 {
		tail = tail[i+1:]
	}
	return head + "…" + tail
}

// longestAgentKey is the length of the longest "agent:…" key of the rows
// shown, in bytes (at least its width in cells): whether keys must lose
// their shared prefix is decided once for the list, not row by row.
func (p *sessionsPane) longestAgentKey() int {
	n := 0
	for _, i := range p.view {
		r := &p.rows[i]
		if k := r.DisplayKey(); strings.HasPrefix(k, "agent:") {
			l := len(k)
			if g := r.Generation; g != nil && !g.Current {
				l += len(g.GenerationReason()) + 3
			}
			n = max(n, l)
		}
	}
	return n
}

// gauge draws pending bytes against the threshold: full means the next
// sweep takes it; dimmed for files the observer never reads.
func gauge(t *themes.Theme, r model.SessionRow) (string, string) {
	if !r.Exists || r.Origin == model.OriginSQLite && r.Generation == nil || r.Selection.ThresholdBytes == 0 {
		return strings.Repeat(" ", colGauge), ""
	}
	f := ratio(r)
	filled := min(colGauge, int(f*colGauge+0.5))
	if f > 0 && filled == 0 {
		filled = 1
	}
	style := t.GaugeFill
	switch {
	case !r.Discovered && r.Generation == nil:
		// A file ClawVault never reads (a SQLite-era session is read by
		// clawvault-tui: its gauge is live).
		style = t.GaugeEmpty
	case f >= 1:
		style = t.GaugeOver
	}
	bar := style.Render(strings.Repeat("█", filled)) + t.GaugeEmpty.Render(strings.Repeat("░", colGauge-filled))
	pct := fmt.Sprintf("%d%%", int(f*100))
	if f >= 10 {
		pct = fmt.Sprintf("%dx", int(f))
	}
	return bar, pct
}

// badge is a row's one-glance state. It is derived from the row's
// diagnosis codes alone, so that it never disagrees with them: the worst
// code's severity decides (3 a problem, 2 needs a look, as the header's
// "need attention" counts them), and below that the code says what comes
// next.
type badge int

const (
	badgeOK        badge = iota // nothing of severity 1 or more
	badgeNote                   // severity 1 that is neither below (a partial tail)
	badgeNever                  // no-cursor: never observed
	badgeCandidate              // the next sweep takes it
	badgeLook                   // severity 2: needs a look
	badgeProblem                // severity 3: never observed, or sweeps do not run
)

// badgeFor is the badge of a row with these codes.
func badgeFor(codes []model.Diagnosis) badge {
	b := badgeOK
	for _, d := range codes {
		var this badge
		switch sev := d.Code.Severity(); {
		case sev >= 3:
			this = badgeProblem
		case sev == 2:
			this = badgeLook
		case d.Code == model.CodeCandidate:
			this = badgeCandidate
		case d.Code == model.CodeNoCursor:
			this = badgeNever
		case sev == 1:
			this = badgeNote
		}
		b = max(b, this)
	}
	return b
}

// rowBadge draws a row's badge: ! problem, ▲ needs a look, ● candidate,
// ○ never observed, ◌ last line still being written, ✓ fine.
func rowBadge(t *themes.Theme, r model.SessionRow) (string, lipgloss.Style) {
	switch badgeFor(r.Diagnosis) {
	case badgeProblem:
		return "!", t.BadgeProblem
	case badgeLook:
		return "▲", t.BadgeStale
	case badgeCandidate:
		return "●", t.BadgeCandidate
	case badgeNever:
		return "○", t.BadgeNever
	case badgeNote:
		return "◌", t.BadgeNever
	}
	return "✓", t.BadgeOK
}

// displayKey is the row's key (or file) as drawn, escaped (inert).
func displayKey(r model.SessionRow) string {
	if g := r.Generation; g != nil && !g.Current {
		return r.DisplayKey() + " (" + g.GenerationReason() + ")"
	}
	if k := r.DisplayKey(); k != "" {
		return inert(k)
	}
	if r.Origin == model.OriginSQLite {
		return "(sqlite store) agent " + inert(r.Agent)
	}
	return "(" + r.Name.Kind.String() + ") " + inert(filepath.Base(r.File))
}

func codeList(r model.SessionRow) []string {
	out := make([]string, 0, len(r.Diagnosis))
	for _, d := range r.Diagnosis {
		out = append(out, string(d.Code))
	}
	return out
}

// detailLines explain the selected session: file facts, cursor, metadata
// and every diagnosis sentence.
func (p *sessionsPane) detailLines(width int) []string {
	t := p.c.Theme
	r, ok := p.Selected()
	if !ok {
		return []string{t.Muted.Render("No session selected.")}
	}
	var lines []string
	field := func(name, value string) {
		lines = append(lines, t.Label.Render(fmt.Sprintf("%-9s", name))+cut(t.Value.Render(inert(value)), width-9))
	}
	lines = append(lines, t.Title.Render(cut(displayKey(r), width)))
	origin := r.Origin.String()
	if r.Name.Kind != model.FileOther {
		origin = r.Name.Kind.String() + ", " + origin
	}
	field("File", filepath.Base(r.File)+" ("+origin+")")
	switch {
	case r.Generation != nil:
		g := r.Generation
		state := "current generation"
		if !g.Current {
			state = "earlier generation"
		}
		field("Session", fmt.Sprintf("%s · %s (%s) · %s events", r.SessionID, state, g.GenerationReason(), model.Count(g.Events)))
		field("Size", model.BytesExact(r.Size)+" as JSONL · updated "+ago(p.now, r.ModTime))
		observed := "never (no seq cursor)"
		if c := r.SeqCursor; c != nil {
			observed = fmt.Sprintf("through seq %d · %s", c.LastSeq, ago(p.now, c.ObservedAt))
		}
		field("Observed", fmt.Sprintf("%s · %s in %s pending of a %s threshold", observed, model.Bytes(r.Selection.NewBytes),
			model.Plural(g.PendingEvents, "event", "events"), model.Bytes(r.Selection.ThresholdBytes)))
	case r.Origin == model.OriginSQLite:
		field("Size", model.BytesExact(r.Size))
	case !r.Exists:
		field("Size", "the file does not exist")
	default:
		field("Size", model.BytesExact(r.Size)+" · modified "+ago(p.now, r.ModTime))
		field("Observed", fmt.Sprintf("%s · %s pending of a %s threshold", cursorFacts(r, p.now), model.Bytes(r.Selection.NewBytes), model.Bytes(r.Selection.ThresholdBytes)))
	}
	if e := r.Entry; e != nil {
		field("Metadata", metadata(e))
	}
	if len(r.Siblings) > 0 {
		field("Siblings", strings.Join(r.Siblings, ", "))
	}
	if h := p.memoryIndex[r.Agent]; h != "" && r.Origin == model.OriginSQLite {
		field("Memory", h)
	}
	for _, w := range p.storeWarnings[r.Agent] {
		text := t.Label.Render("agent "+inert(r.Agent)+": ") + t.Value.Render(inert(w))
		lines = append(lines, strings.Split(wrap(text, width), "\n")...)
	}
	for _, d := range r.Diagnosis {
		text := t.Label.Render(string(d.Code)+": ") + t.Value.Render(inert(d.Message))
		lines = append(lines, strings.Split(wrap(text, width), "\n")...)
	}
	if len(r.Diagnosis) == 0 {
		lines = append(lines, t.BadgeOK.Render("Nothing to report: observed up to its end."))
	}
	return lines
}

func cursorFacts(r model.SessionRow, now time.Time) string {
	c := r.Cursor
	if c == nil {
		if r.CursorProblem != "" {
			return "ignored cursor: " + r.CursorProblem
		}
		return "never"
	}
	s := "up to byte " + c.OffsetText()
	if at, ok := c.ObservedAt(); ok {
		s += " · " + ago(now, at)
	}
	if r.Stale {
		s += " · stale"
	}
	return s
}

// metadata summarises a sessions.json row: model, tokens against the
// context window, compactions against memory flushes.
func metadata(e *model.StatusEntry) string {
	var parts []string
	if e.Model != "" {
		m := e.Model
		if e.ModelProvider != "" {
			m = e.ModelProvider + "/" + m
		}
		parts = append(parts, m)
	}
	if e.TotalTokens != nil {
		tok := model.Count(*e.TotalTokens) + " tokens"
		if e.ContextTokens != nil && *e.ContextTokens > 0 {
			tok += fmt.Sprintf(" / %s (%d%%)", model.Count(*e.ContextTokens), *e.TotalTokens*100 / *e.ContextTokens)
		}
		parts = append(parts, tok)
	}
	if e.CompactionCount != nil {
		c, f, _ := e.FlushSkipped()
		parts = append(parts, fmt.Sprintf("compactions %d, flushed through %d", c, f))
	}
	if e.EstimatedCostUSD != nil {
		parts = append(parts, fmt.Sprintf("$%.2f", *e.EstimatedCostUSD))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, " · ")
}

func ago(now, t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return model.Ago(now.Sub(t)) + " ago"
}

// SetStoreWarnings records, per agent, what is wrong with its session
// stores, shown with each of its sessions: a sessions.json that does not
// parse leaves its rows unlisted and its files undiscovered, and the row
// alone would not say why.
func (p *sessionsPane) SetStoreWarnings(warnings map[string][]string) { p.storeWarnings = warnings }

// storeWarnings are the agents' store problems: sessions.json that cannot
// be read, and rows or SQLite entries with a field of the wrong type.
func storeWarnings(agents []model.AgentSnapshot) map[string][]string {
	out := map[string][]string{}
	for _, ag := range agents {
		if ag.StoreProblem != "" {
			out[ag.AgentID] = append(out[ag.AgentID], ag.StoreProblem)
		}
		if len(ag.RowProblems) > 0 {
			out[ag.AgentID] = append(out[ag.AgentID], "sessions.json: "+model.RowProblemsSentence(ag.RowProblems))
		}
		if st := ag.SQLiteStore; st != nil && len(st.NodeProblems) > 0 {
			out[ag.AgentID] = append(out[ag.AgentID], "session_nodes: "+model.RowProblemsSentence(st.NodeProblems))
		}
	}
	return out
}

// SetMemoryIndex records each agent's memory index health line.
func (p *sessionsPane) SetMemoryIndex(health map[string]string) { p.memoryIndex = health }

// memoryIndexLine is an agent's memory index health, in a line.
func memoryIndexLine(h *model.MemoryIndexHealth) string {
	if h == nil {
		return ""
	}
	s := fmt.Sprintf("search index of %s, %s", model.Plural(h.Indexed, "file", "files"), model.Plural(h.Chunks, "chunk", "chunks"))
	if !h.Stale() {
		return s + ": up to date"
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{len(h.Changed), "changed since indexed"}, {len(h.NeverIndexed), "never indexed"}, {len(h.Gone), "gone"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return s + ": stale, " + strings.Join(parts, ", ")
}
