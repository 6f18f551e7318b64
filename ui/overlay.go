package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// overlay draws box centred over the frame.
func overlay(frame, box string, width, height int) string {
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	x, y := max(0, (width-bw)/2), max(0, (height-bh)/2)
	return lipgloss.NewCompositor(
		lipgloss.NewLayer(frame),
		lipgloss.NewLayer(box).X(x).Y(y).Z(1),
	).Render()
}

// helpBox lists every binding of the screen and the global ones, from the
// same key map the keys are matched against.
func (a *App) helpBox() string {
	t := a.c.Theme
	k := a.c.Keys
	groups := append([][]key.Binding{k.globalKeys()}, a.keysOf().FullHelp()...)
	var cols []string
	for _, g := range groups {
		keyW := 0
		for _, b := range g {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
		var lines []string
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			lines = append(lines, t.HelpKey.Render(fit(b.Help().Key, keyW+2))+t.HelpDesc.Render(b.Help().Desc))
		}
		cols = append(cols, strings.Join(lines, "\n"))
	}
	body := lipgloss.JoinHorizontal(lipgloss.Top, spaced(cols)...)
	title := t.Title.Render("Keys") + t.Muted.Render("  (remap them in the [keys] section of the config file; ? closes)")
	return a.box(title + "\n" + t.Muted.Render(escRule) + "\n\n" + body)
}

// escRule is what Esc does, on every screen.
const escRule = "esc closes what is open, then clears a filter or a search, then goes back a screen"

func spaced(cols []string) []string {
	out := make([]string, 0, 2*len(cols))
	for i, c := range cols {
		if i > 0 {
			out = append(out, "   ")
		}
		out = append(out, c)
	}
	return out
}

// box frames content within the terminal's width.
func (a *App) box(content string) string {
	maxW := max(20, a.width-4)
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, maxW-4, "…")
	}
	return lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(a.c.Theme.Border.GetForeground()).
		Padding(0, 1).Render(strings.Join(lines, "\n"))
}

// confirmDialog asks before a job that writes (a real sweep).
type confirmDialog struct {
	title string
	lines []string
	onYes func(a *App) tea.Cmd
}

func (a *App) confirmBox(d *confirmDialog) string {
	t := a.c.Theme
	lines := d.lines
	if max := a.height - 8; len(lines) > max && max > 1 {
		lines = append(lines[:max-1:max-1], t.Muted.Render("…"))
	}
	k := a.c.Keys
	footer := t.HelpKey.Render(k.Confirm.Help().Key) + " start   " + t.HelpKey.Render(k.Deny.Help().Key) + " cancel"
	return a.box(t.Title.Render(d.title) + "\n\n" + strings.Join(lines, "\n") + "\n\n" + footer)
}
