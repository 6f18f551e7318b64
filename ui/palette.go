package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
)

// The command palette (`:`) lists every action with its key, filtered as
// you type, and runs the chosen one by pressing its key for you: on its
// screen, which it switches to first when the action is not available
// where you are. Its entries come from the global keys and each screen's
// FullHelp, the lists that feed the help overlay, so an action a pane adds
// to its help is in the palette too.

// paletteEntry is one action: its binding and the screens it answers on
// (none: everywhere).
type paletteEntry struct {
	binding key.Binding
	screens []screen
	// text is what the query is matched against: the help text and the
	// screens.
	text string
}

type palette struct {
	input   textinput.Model
	entries []paletteEntry
	shown   []int // entries that match the query, best first
	cursor  int
	offset  int
}

// paletteEntries lists every action once, global ones first, then each
// screen's in its help's order.
func (a *App) paletteEntries() []paletteEntry {
	k := a.c.Keys
	var out []paletteEntry
	index := map[string]int{} // help text → entry
	add := func(b key.Binding, s screen, global bool) {
		if !b.Enabled() || b.Help().Desc == k.Palette.Help().Desc {
			return
		}
		if i, ok := index[b.Help().Desc]; ok {
			if e := &out[i]; len(e.screens) > 0 && !slices.Contains(e.screens, s) {
				e.screens = append(e.screens, s)
			}
			return
		}
		e := paletteEntry{binding: b}
		if !global {
			e.screens = []screen{s}
		}
		index[b.Help().Desc] = len(out)
		out = append(out, e)
	}
	for _, b := range k.globalKeys() {
		add(b, 0, true)
	}
	for s := screen(0); s < screens; s++ {
		for _, g := range a.paneOf(s).FullHelp() {
			for _, b := range g {
				add(b, s, false)
			}
		}
	}
	for i := range out {
		out[i].text = out[i].binding.Help().Desc + " " + out[i].where()
	}
	return out
}

// where names the screens an entry answers on.
func (e paletteEntry) where() string {
	if len(e.screens) == 0 {
		return "everywhere"
	}
	names := make([]string, len(e.screens))
	for i, s := range e.screens {
		names[i] = screenNames[s]
	}
	return strings.Join(names, ", ")
}

func (a *App) openPalette() tea.Cmd {
	in := steadyInput(a.c.Theme, ": ", "an action, e.g. sweep")
	in.SetWidth(max(10, a.paletteWidth()-4))
	a.palette = &palette{input: in, entries: a.paletteEntries()}
	a.palette.filter()
	return a.palette.input.Focus()
}

// filter orders the entries that match the query, best first; the order of
// the list breaks ties.
func (p *palette) filter() {
	q := strings.TrimSpace(p.input.Value())
	type scored struct{ i, score int }
	var m []scored
	for i, e := range p.entries {
		if s := fuzzyScore(q, e.text); s >= 0 {
			m = append(m, scored{i, s})
		}
	}
	slices.SortStableFunc(m, func(x, y scored) int { return y.score - x.score })
	p.shown = p.shown[:0]
	for _, s := range m {
		p.shown = append(p.shown, s.i)
	}
	p.cursor, p.offset = 0, 0
}

// paletteKey handles a key while the palette is open: typing filters,
// up/down choose, enter runs, esc closes.
func (a *App) paletteKey(msg tea.KeyPressMsg) tea.Cmd {
	p := a.palette
	rows := a.paletteRows()
	switch msg.String() {
	case "esc":
		a.palette = nil
		return nil
	case "enter":
		a.palette = nil
		if p.cursor < len(p.shown) {
			return a.runEntry(p.entries[p.shown[p.cursor]])
		}
		return nil
	case "up", "ctrl+p":
		p.cursor--
	case "down", "ctrl+n":
		p.cursor++
	case "pgup":
		p.cursor -= rows
	case "pgdown":
		p.cursor += rows
	default:
		var cmd tea.Cmd
		before := p.input.Value()
		p.input, cmd = p.input.Update(msg)
		if p.input.Value() != before {
			p.filter()
		}
		return cmd
	}
	p.cursor = max(0, min(p.cursor, len(p.shown)-1))
	p.offset = window(p.cursor, p.offset, rows, len(p.shown))
	return nil
}

// runEntry presses an entry's key, on a screen where the action answers.
func (a *App) runEntry(e paletteEntry) tea.Cmd {
	k := e.binding.Keys()[0]
	msg, ok := keyPress(k)
	if !ok {
		return a.setStatus(fmt.Sprintf("%s: the palette cannot press %q; press it yourself", e.binding.Help().Desc, k))
	}
	var cmds []tea.Cmd
	if len(e.screens) > 0 && !slices.Contains(e.screens, a.screen) {
		cmds = append(cmds, a.switchTo(e.screens[0]))
	}
	return tea.Batch(append(cmds, a.handleKey(msg))...)
}

// keyPress is the key press whose String() is k, the way key bindings
// name keys: "S", "]", "enter", "ctrl+d", "shift+tab".
func keyPress(k string) (tea.KeyPressMsg, bool) {
	var msg tea.KeyPressMsg
	rest := k
	for _, m := range []struct {
		prefix string
		mod    tea.KeyMod
	}{{"ctrl+", tea.ModCtrl}, {"alt+", tea.ModAlt}, {"shift+", tea.ModShift}} {
		if strings.HasPrefix(rest, m.prefix) && len(rest) > len(m.prefix) {
			msg.Mod |= m.mod
			rest = rest[len(m.prefix):]
		}
	}
	if code, ok := namedKeys[rest]; ok {
		msg.Code = code
	} else if r := []rune(rest); len(r) == 1 {
		msg.Code = r[0]
		if msg.Mod == 0 {
			msg.Text = rest
		}
	} else {
		return msg, false
	}
	return msg, msg.String() == k
}

// namedKeys are the keys bindings name by a word.
var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "tab": tea.KeyTab, "backspace": tea.KeyBackspace, "esc": tea.KeyEscape,
	"space": tea.KeySpace, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"insert": tea.KeyInsert, "delete": tea.KeyDelete, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"home": tea.KeyHome, "end": tea.KeyEnd, "f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4,
	"f5": tea.KeyF5, "f6": tea.KeyF6, "f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10,
	"f11": tea.KeyF11, "f12": tea.KeyF12,
}

// fuzzyScore scores query as a subsequence of text, ignoring case: -1
// when it is not one, else more for letters that follow one another and
// for letters that start a word, the best placement counted. An empty
// query matches everything equally.
func fuzzyScore(query, text string) int {
	q := []rune(strings.ToLower(query))
	t := []rune(strings.ToLower(text))
	if len(q) == 0 {
		return 0
	}
	const none = -1 << 30
	// prev[j]: the best score of q[:i] with its last letter at t[j].
	prev := make([]int, len(t))
	cur := make([]int, len(t))
	for j := range t {
		prev[j] = none
		if t[j] == q[0] {
			prev[j] = letterScore(t, j)
		}
	}
	for i := 1; i < len(q); i++ {
		bestBefore := none // max of prev[0 .. j-2]
		for j := range t {
			cur[j] = none
			if j >= 2 {
				bestBefore = max(bestBefore, prev[j-2])
			}
			if t[j] != q[i] || j == 0 {
				continue
			}
			best := bestBefore
			if prev[j-1] != none {
				best = max(best, prev[j-1]+5) // follows the last letter
			}
			if best != none {
				cur[j] = best + letterScore(t, j)
			}
		}
		prev, cur = cur, prev
	}
	best := none
	for _, s := range prev {
		best = max(best, s)
	}
	if best == none {
		return -1
	}
	return best
}

// letterScore is a matched letter's worth: more at the start of a word,
// most at the start of the text.
func letterScore(t []rune, j int) int {
	switch {
	case j == 0:
		return 8
	case !unicode.IsLetter(t[j-1]) && !unicode.IsDigit(t[j-1]):
		return 4
	}
	return 1
}

// paletteWidth is the palette box's inner width.
func (a *App) paletteWidth() int { return min(72, a.boxInner()) }

// paletteRows is how many entries the palette shows at once.
func (a *App) paletteRows() int { return max(3, min(16, a.height-8)) }

func (a *App) paletteBox() string {
	p, t := a.palette, a.c.Theme
	w := a.paletteWidth()
	lines := []string{cut(p.input.View(), w), ""}
	rows := a.paletteRows()
	keyW := 0
	for _, e := range p.entries {
		keyW = max(keyW, ansi.StringWidth(e.binding.Help().Key))
	}
	const whereW = 20
	for i := p.offset; i < p.offset+rows && i < len(p.shown); i++ {
		e := p.entries[p.shown[i]]
		keyText := fit(e.binding.Help().Key, keyW)
		left := fit(e.binding.Help().Desc, max(10, w-keyW-whereW-4))
		right := fit(e.where(), whereW)
		line := keyText + "  " + left + "  " + right
		if i == p.cursor {
			lines = append(lines, t.Selected.Render(fit(line, w)))
		} else {
			lines = append(lines, t.HelpKey.Render(keyText)+"  "+t.HelpDesc.Render(left)+"  "+t.Muted.Render(right))
		}
	}
	if len(p.shown) == 0 {
		lines = append(lines, t.Muted.Render("no action matches"))
	}
	lines = append(lines, "", t.Muted.Render(cut(fmt.Sprintf("%d of %s · ↑/↓ choose · enter runs · esc closes", len(p.shown), model.Plural(len(p.entries), "action", "actions")), w)))
	return a.box(strings.Join(lines, "\n"))
}
