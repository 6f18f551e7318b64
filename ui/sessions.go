package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/themes"
)

// sessionsPane lists every session with its pending bytes against the
// threshold, and explains the selected one. Only the visible window of
// rows is rendered, so 10,000 sessions cost what 30 do.
type sessionsPane struct {
	common *Common
	rows   []model.SessionRow
	cursor int
	offset int // first visible row
	width  int
	height int
}

func newSessionsPane(c *Common) *sessionsPane {
	return &sessionsPane{common: c}
}

// SetRows replaces the rows, keeping the selection on the same session.
func (p *sessionsPane) SetRows(rows []model.SessionRow) {
	var keep string
	if p.cursor < len(p.rows) {
		keep = p.rows[p.cursor].File
	}
	p.rows = slices.Clone(rows)
	slices.SortStableFunc(p.rows, compareUrgency)
	p.cursor = 0
	for i, r := range p.rows {
		if r.File == keep && keep != "" {
			p.cursor = i
		}
	}
	p.clamp()
}

// compareUrgency puts the sessions that most need a look first: the worst
// problem, then the most unobserved bytes.
func compareUrgency(a, b model.SessionRow) int {
	if c := cmp.Compare(severity(b), severity(a)); c != 0 {
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
	if p.cursor < len(p.rows) {
		return p.rows[p.cursor], true
	}
	return model.SessionRow{}, false
}

func (p *sessionsPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.clamp()
}

// listHeight is the number of table rows visible; the rest is the detail.
func (p *sessionsPane) listHeight() int {
	return max(1, p.height-1-p.detailHeight())
}

func (p *sessionsPane) detailHeight() int {
	return min(10, max(4, p.height/3))
}

func (p *sessionsPane) clamp() {
	n := len(p.rows)
	p.cursor = max(0, min(p.cursor, n-1))
	h := p.listHeight()
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+h {
		p.offset = p.cursor - h + 1
	}
	p.offset = max(0, min(p.offset, n-h))
}

// HandleKey moves the selection; it reports whether it used the key.
func (p *sessionsPane) HandleKey(msg tea.KeyPressMsg) bool {
	k := p.common.Keys
	page := p.listHeight()
	switch {
	case key.Matches(msg, k.Up):
		p.cursor--
	case key.Matches(msg, k.Down):
		p.cursor++
	case key.Matches(msg, k.PageUp):
		p.cursor -= page
		p.offset -= page
	case key.Matches(msg, k.PageDown):
		p.cursor += page
		p.offset += page
	case key.Matches(msg, k.Top):
		p.cursor = 0
	case key.Matches(msg, k.Bottom):
		p.cursor = len(p.rows) - 1
	default:
		return false
	}
	p.clamp()
	return true
}

func (p *sessionsPane) ShortHelp() []key.Binding {
	k := p.common.Keys
	return []key.Binding{k.Up, k.Down, k.PageDown, k.Rescan, k.Help, k.Quit}
}

func (p *sessionsPane) FullHelp() [][]key.Binding {
	k := p.common.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Rescan, k.Help, k.Quit}}
}

// column widths of the table; the key column takes what is left.
const (
	colMark  = 2
	colLabel = 14
	colSize  = 9
	colGauge = 10
	colPct   = 6
)

func (p *sessionsPane) keyWidth() int {
	fixed := colMark + colLabel + colSize + colGauge + colPct + 5
	codes := max(12, (p.width-fixed)/3)
	return max(16, p.width-fixed-codes)
}

func (p *sessionsPane) View() string {
	t := p.common.Theme
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	var b strings.Builder
	kw := p.keyWidth()
	head := fmt.Sprintf("%-*s%-*s %-*s %*s %-*s %*s %s", colMark, "", kw, "SESSION", colLabel, "LABEL", colSize, "SIZE", colGauge, "PENDING", colPct, "", "STATE")
	b.WriteString(t.Header.Render(ansi.Truncate(head, p.width, "")))
	b.WriteByte('\n')
	h := p.listHeight()
	for i := p.offset; i < p.offset+h; i++ {
		if i < len(p.rows) {
			b.WriteString(p.renderRow(i, kw))
		}
		b.WriteByte('\n')
	}
	b.WriteString(p.renderDetail())
	return b.String()
}

func (p *sessionsPane) renderRow(i, kw int) string {
	t := p.common.Theme
	r := p.rows[i]
	selected := i == p.cursor
	mark := "  "
	if selected {
		mark = "▸ "
	}
	badge, badgeStyle := rowBadge(t, r)
	keyText := ansi.Truncate(displayKey(r), kw-1, "…")
	size := "missing"
	if r.Exists {
		size = model.Bytes(r.Size)
	}
	gauge, pct := p.gauge(r)
	codes := strings.Join(codeList(r), " ")
	line := fmt.Sprintf("%s%s %-*s %-*s %*s %s %*s ", mark, badgeStyle.Render(badge), kw-2, keyText, colLabel, ansi.Truncate(r.Label, colLabel, "…"), colSize, size, gauge, colPct, pct)
	rest := max(0, p.width-ansi.StringWidth(line))
	line = ansi.Truncate(line+ansi.Truncate(codes, rest, "…"), p.width, "")
	if selected {
		return t.Selected.Render(ansi.Strip(padRight(line, p.width)))
	}
	return t.Row.Render(line)
}

// gauge draws pending bytes against the threshold: full means the next
// sweep takes it.
func (p *sessionsPane) gauge(r model.SessionRow) (string, string) {
	t := p.common.Theme
	if !r.Exists || r.Origin == model.OriginSQLite || r.Selection.ThresholdBytes == 0 {
		return strings.Repeat(" ", colGauge), ""
	}
	f := ratio(r)
	filled := min(colGauge, int(f*colGauge+0.5))
	if f > 0 && filled == 0 {
		filled = 1
	}
	style := t.GaugeFill
	switch {
	case !r.Discovered:
		// The observer never reads it: the bar shows bytes, not progress.
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

// rowBadge is the one-glance state of a row: ! problem, ● candidate,
// ◷ stale, ○ never observed, ✓ fine.
func rowBadge(t *themes.Theme, r model.SessionRow) (string, lipgloss.Style) {
	switch {
	case severity(r) >= 3:
		return "!", t.BadgeProblem
	case r.Candidate:
		return "●", t.BadgeCandidate
	case r.Stale:
		return "◷", t.BadgeStale
	case r.Cursor == nil && r.Exists:
		return "○", t.BadgeNever
	}
	return "✓", t.BadgeOK
}

func displayKey(r model.SessionRow) string {
	if k := r.DisplayKey(); k != "" {
		return k
	}
	if r.Origin == model.OriginSQLite {
		return "(sqlite store) agent " + r.Agent
	}
	return "(" + r.Name.Kind.String() + ") " + baseName(r.File)
}

func codeList(r model.SessionRow) []string {
	out := make([]string, 0, len(r.Diagnosis))
	for _, d := range r.Diagnosis {
		out = append(out, string(d.Code))
	}
	return out
}

func (p *sessionsPane) renderDetail() string {
	t := p.common.Theme
	h := p.detailHeight()
	lines := make([]string, 0, h)
	lines = append(lines, t.Border.Render(strings.Repeat("─", p.width)))
	r, ok := p.Selected()
	if !ok {
		lines = append(lines, t.Muted.Render("No sessions."))
	} else {
		lines = append(lines, t.Title.Render(ansi.Truncate(displayKey(r), p.width, "…")))
		facts := fmt.Sprintf("%s  %s", r.File, sizeFacts(r))
		lines = append(lines, t.Muted.Render(ansi.Truncate(facts, p.width, "…")))
		for _, d := range r.Diagnosis {
			text := t.Label.Render(string(d.Code)+": ") + t.Value.Render(d.Message)
			lines = append(lines, strings.Split(lipgloss.Wrap(text, p.width, " "), "\n")...)
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}

func sizeFacts(r model.SessionRow) string {
	if !r.Exists {
		return "missing"
	}
	s := model.Bytes(r.Size)
	if r.Cursor != nil {
		s += fmt.Sprintf(" · cursor %s (%s) · observed %s", model.Count(r.Cursor.Offset()), model.Bytes(r.Cursor.Offset()), r.Cursor.LastObservedAt)
	} else {
		s += " · never observed"
	}
	if r.Selection.ThresholdBytes > 0 {
		s += fmt.Sprintf(" · pending %s of %s", model.Bytes(r.Selection.NewBytes), model.Bytes(r.Selection.ThresholdBytes))
	}
	return s
}

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
