package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/themes"
)

// overlay draws box centred over the frame.
func overlay(frame, box string, width, height int) string {
	return place(frame, box, (width-lipgloss.Width(box))/2, (height-lipgloss.Height(box))/2)
}

// overlayTop draws box centred across the frame, near its top, where a
// command palette opens.
func overlayTop(frame, box string, width int) string {
	return place(frame, box, (width-lipgloss.Width(box))/2, 1)
}

// place draws box over frame with its top left corner at x, y.
func place(frame, box string, x, y int) string {
	return lipgloss.NewCompositor(
		lipgloss.NewLayer(frame),
		lipgloss.NewLayer(box).X(max(0, x)).Y(max(0, y)).Z(1),
	).Render()
}

// helpBox lists every binding of the screen and the global ones, from the
// same key map the keys are matched against: the groups side by side as
// far as the width allows, the rest below, scrolled when they do not fit.
func (a *App) helpBox() string {
	head, body, avail := a.helpContent()
	off := min(a.helpOffset, max(0, len(body)-avail))
	lines := append(head, body[off:min(len(body), off+avail)]...)
	if len(body) > avail {
		k := a.c.Keys
		more := fmt.Sprintf("lines %d–%d of %d · %s %s scroll", off+1, min(len(body), off+avail), len(body), k.Down.Help().Key, k.Up.Help().Key)
		lines = append(lines, a.c.Theme.Muted.Render(more))
	}
	return a.box(strings.Join(lines, "\n"))
}

// helpContent is the help's heading, its body, and how many body lines fit.
func (a *App) helpContent() (head, body []string, avail int) {
	t := a.c.Theme
	width := a.boxInner()
	head = append(head, cut(t.Title.Render("Keys")+t.Muted.Render("  remap them in the [keys] section of the config file · ? closes"), width))
	head = append(head, strings.Split(t.Muted.Render(wrap(escRule, width)), "\n")...)
	head = append(head, "")
	body = helpColumns(t, append([][]key.Binding{a.c.Keys.globalKeys()}, a.keysOf().FullHelp()...), width)
	// The box keeps a line of the frame above and below it, and its border.
	avail = max(1, a.height-2-2-len(head))
	if len(body) > avail {
		avail = max(1, avail-1) // the line that says how to scroll
	}
	return head, body, avail
}

// scrollHelp applies a scrolling key to the help; it reports whether the
// key was one.
func (a *App) scrollHelp(msg tea.KeyPressMsg) bool {
	_, body, avail := a.helpContent()
	last := max(0, len(body)-avail)
	off, ok := listMove(a.c.Keys, msg, a.helpOffset, avail, last+1)
	if ok {
		a.helpOffset = max(0, min(off, last))
	}
	return ok
}

// helpColumns draws each group of bindings as a column and lays the
// columns out left to right, wrapping to a new row of columns when the
// next would not fit in width.
func helpColumns(t *themes.Theme, groups [][]key.Binding, width int) []string {
	var cols []string
	for _, g := range groups {
		keyW := 0
		for _, b := range g {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
		var lines []string
		for _, b := range g {
			if b.Enabled() {
				lines = append(lines, t.HelpKey.Render(fit(b.Help().Key, keyW+2))+t.HelpDesc.Render(b.Help().Desc))
			}
		}
		if len(lines) > 0 {
			cols = append(cols, strings.Join(lines, "\n"))
		}
	}
	const gap = "   "
	var out []string
	var row []string
	rowW := 0
	flush := func() {
		if len(row) == 0 {
			return
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, row...), "\n")...)
		row, rowW = nil, 0
	}
	for _, c := range cols {
		w := lipgloss.Width(c)
		if len(row) > 0 && rowW+len(gap)+w > width {
			flush()
		}
		if len(row) > 0 {
			row = append(row, gap)
			rowW += len(gap)
		}
		row = append(row, c)
		rowW += w
	}
	flush()
	return out
}

// escRule is what Esc does, on every screen.
const escRule = "esc closes what is open, then clears a filter or a search, then goes back a screen"

// boxInner is the width inside a box: the terminal's, less the margin
// around the box, its border and its padding.
func (a *App) boxInner() int { return max(20, a.width-4) - 4 }

// box frames content within the terminal's width.
func (a *App) box(content string) string {
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, a.boxInner(), "…")
	}
	return lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(a.c.Theme.Border.GetForeground()).
		Padding(0, 1).Render(strings.Join(lines, "\n"))
}

// confirmDialog asks before something that cannot be taken back (a
// sweep, quitting under one).
type confirmDialog struct {
	// title, text and lines are plain text, escaped when drawn (they may
	// name sessions and files); text is wrapped to the box, lines are shown
	// one a line.
	title string
	text  string
	lines []string
	// yes and no name the answers: what each does, in this dialog.
	yes, no string
	onYes   func(a *App) tea.Cmd
	// whileWriting: the question is about the jobs that write (quitting
	// under a sweep); it goes when the last of them ends.
	whileWriting bool
}

func (a *App) confirmBox(d *confirmDialog) string {
	t := a.c.Theme
	var body []string
	// A dialog names sessions and files: what it draws is escaped here
	// (escaping twice changes nothing), whatever its caller did.
	if d.text != "" {
		body = append(body, strings.Split(wrap(inertText(d.text), a.boxInner()), "\n")...)
	}
	lines := make([]string, len(d.lines))
	for i, l := range d.lines {
		lines[i] = inert(l)
	}
	if max := a.height - 8 - len(body); len(lines) > max && max > 1 {
		lines = append(lines[:max-1:max-1], t.Muted.Render("…"))
	}
	body = append(body, lines...)
	k := a.c.Keys
	footer := t.HelpKey.Render(k.Confirm.Help().Key) + " " + d.yes + "   " + t.HelpKey.Render(k.Deny.Help().Key) + " " + d.no
	return a.box(t.Title.Render(wrap(inertText(d.title), a.boxInner())) + "\n\n" + strings.Join(body, "\n") + "\n\n" + footer)
}
