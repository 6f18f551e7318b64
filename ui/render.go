package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/themes"
)

// inert is text from files (keys, names, messages, paths) made safe to
// draw: its control and bidirectional characters escaped
// (model.EscapeControls), so that only our styles reach the terminal as
// sequences. Every such text goes through it before it is styled.
func inert(s string) string { return model.EscapeControls(s) }

// inertText is inert for text drawn as lines (a message body, a summary):
// its newlines and tabs stay.
func inertText(s string) string { return model.EscapeControlsText(s) }

// fit cuts or pads a styled line to exactly width cells.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if w := ansi.StringWidth(s); w > width {
		return ansi.Truncate(s, width, "…")
	} else if w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// cut truncates a styled line to at most width cells.
func cut(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
}

// block makes s exactly width×height: lines cut or padded, missing lines
// blank, extra lines dropped.
func block(s string, width, height int) string {
	if height <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i := range lines {
		lines[i] = fit(lines[i], width)
	}
	for len(lines) < height {
		lines = append(lines, strings.Repeat(" ", width))
	}
	return strings.Join(lines, "\n")
}

// wrap word-wraps plain or styled text to width.
func wrap(s string, width int) string {
	if width <= 0 {
		return s
	}
	return lipgloss.Wrap(s, width, " ")
}

// sideBySide joins two blocks of the same height with a separator column.
func sideBySide(left, right string, sep string) string {
	l := strings.Split(left, "\n")
	r := strings.Split(right, "\n")
	n := max(len(l), len(r))
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(l) {
			b.WriteString(l[i])
		}
		b.WriteString(sep)
		if i < len(r) {
			b.WriteString(r[i])
		}
	}
	return b.String()
}

// window returns the first row to show so that cursor stays visible in
// height rows, moving offset as little as possible.
func window(cursor, offset, height, n int) int {
	if height <= 0 || n == 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+height {
		offset = cursor - height + 1
	}
	return max(0, min(offset, n-height))
}

// steadyInput returns a text input in the theme's styles whose cursor does
// not blink: a blinking cursor redraws the screen twice a second for
// nothing.
func steadyInput(t *themes.Theme, prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt, in.Placeholder = prompt, placeholder
	in.SetStyles(inputStyles(t))
	return in
}

// inputStyles are a text input's styles from the theme (Bubbles' own
// defaults are colours written inline, even under NO_COLOR).
func inputStyles(t *themes.Theme) textinput.Styles {
	state := textinput.StyleState{Text: t.Value, Placeholder: t.Muted, Suggestion: t.Muted, Prompt: t.Label}
	return textinput.Styles{Focused: state, Blurred: state,
		Cursor: textinput.CursorStyle{Color: t.Value.GetForeground(), Shape: tea.CursorBlock}}
}

// splitLayout places a list and its detail: side by side from sideFrom
// columns up (the list gets 55%), else the list above a rule and the detail
// below it, taking two fifths of the height.
type splitLayout struct {
	width, height int
	sideFrom      int
	// minDetail is the fewest lines the stacked detail gets.
	minDetail int
	// maxDetail caps the stacked detail (0: no cap).
	maxDetail int
}

func (s splitLayout) side() bool { return s.width >= s.sideFrom }

func (s splitLayout) listWidth() int {
	if s.side() {
		return s.width * 55 / 100
	}
	return s.width
}

func (s splitLayout) detailWidth() int {
	if s.side() {
		return s.width - s.listWidth() - 3
	}
	return s.width
}

// detailHeight is the detail's height given the lines above both parts.
func (s splitLayout) detailHeight(above int) int {
	if s.side() {
		return s.height - above
	}
	h := max(s.minDetail, s.height*2/5)
	if s.maxDetail > 0 {
		h = min(h, s.maxDetail)
	}
	return h
}

// listHeight is what is left for the list's rows after the lines above
// it (headers, an input) and, stacked, the detail and its rule.
func (s splitLayout) listHeight(above int) int {
	h := s.height - above
	if !s.side() {
		h -= s.detailHeight(above) + 1
	}
	return max(1, h)
}

// join draws the two parts, separated by a rule in the border style.
func (s splitLayout) join(list, detail string, border lipgloss.Style, above int) string {
	lw, dw := s.listWidth(), s.detailWidth()
	if s.side() {
		h := s.height - above
		return sideBySide(block(list, lw, h), block(detail, dw, h), border.Render(" │ "))
	}
	return block(list, lw, s.listHeight(above)) + "\n" + border.Render(strings.Repeat("─", s.width)) + "\n" +
		block(detail, dw, s.detailHeight(above))
}

// listKeys are the keys listMove handles, for the help of the list panes.
func (k *KeyMap) listKeys() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// listMove applies a list-navigation key (up, down, a page either way, top,
// bottom) to a cursor over n rows shown page at a time; ok is false for
// any other key. The caller clamps.
func listMove(k *KeyMap, msg tea.KeyPressMsg, cursor, page, n int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		return cursor - 1, true
	case key.Matches(msg, k.Down):
		return cursor + 1, true
	case key.Matches(msg, k.PageUp):
		return cursor - page, true
	case key.Matches(msg, k.PageDown):
		return cursor + page, true
	case key.Matches(msg, k.Top):
		return 0, true
	case key.Matches(msg, k.Bottom):
		return n - 1, true
	}
	return cursor, false
}

// scrolled shows height of lines from offset (clamped to what there is);
// when more lines follow, the last one shown says which key scrolls on.
func scrolled(t *themes.Theme, lines []string, offset, height int, down key.Binding) string {
	if height <= 0 {
		return ""
	}
	offset = max(0, min(offset, len(lines)-height))
	shown := lines[offset:min(len(lines), offset+height)]
	if offset+height < len(lines) {
		shown = append(shown[:height-1:height-1], t.Muted.Render(fmt.Sprintf("… %s (%s)", model.Plural(len(lines)-offset-height+1, "more line", "more lines"), down.Help().Key)))
	}
	return strings.Join(shown, "\n")
}

// scrollBy moves a scroll offset by n lines, within lines shown height at a
// time.
func scrollBy(offset, n, lines, height int) int {
	return max(0, min(offset+n, lines-height))
}
