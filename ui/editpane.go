package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/store/vaultfs"
)

// The built-in editor: a memory file at a line, saved atomically only over
// the version it opened (vaultfs.Space.Save). When the file changed on
// disk meanwhile, nothing is written: it says so and offers the disk's
// version, a diff, or a merge when the two versions touched different
// lines. It is modal: while it is open it has the keyboard.

type editorMode int

const (
	editing  editorMode = iota
	conflict            // a save found the file changed: reload, diff or merge
	diffing             // the diff of the disk's version against the buffer
)

// Messages of the editor's commands.
type (
	// openEditorMsg asks the root to open the built-in editor.
	openEditorMsg struct {
		path string
		line int
	}
	editorLoadedMsg struct {
		job  int
		doc  *vaultfs.Doc
		line int
		err  error
	}
	editorSavedMsg struct {
		job   int
		saved vaultfs.Saved
		data  []byte
		err   error
	}
)

// editorPane edits one memory file.
type editorPane struct {
	c    *Common
	path string
	// base is the version the edit began from: what a save must find on
	// disk, and the common ancestor of a merge.
	base *vaultfs.Doc
	buf  *editBuffer

	width, height int
	// top and topSeg are the first visible row: a line, and the part of
	// it (a long line wraps into several).
	top, topSeg int

	mode    editorMode
	saving  bool
	saveJob int
	// clash is the last save's conflict.
	clash      *vaultfs.ConflictError
	diff       []model.DiffLine
	diffOffset int
	note       string // a line about the last action
}

func newEditorPane(c *Common, doc *vaultfs.Doc, line int) *editorPane {
	p := &editorPane{c: c, path: doc.Path, base: doc, buf: newEditBuffer(doc.Data)}
	p.buf.gotoLine(line)
	return p
}

// loadEditor reads a file for the editor, refusing what it must not edit.
func loadEditor(c *Common, job int, path string, line int) tea.Cmd {
	space := c.Space
	return func() tea.Msg {
		if _, err := space.Editable(path); err != nil {
			return editorLoadedMsg{job: job, err: err}
		}
		doc, err := space.Read(path)
		return editorLoadedMsg{job: job, doc: doc, line: line, err: err}
	}
}

func (p *editorPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.scrollTo(false)
}

// bodyHeight is the rows of text: the pane less the header and the notes
// below the text.
func (p *editorPane) bodyHeight() int { return max(1, p.height-1-len(p.notes())) }

// gutter is the width of the line numbers and the space after them.
func (p *editorPane) gutter() int { return len(fmt.Sprint(len(p.buf.lines))) + 1 }

func (p *editorPane) textWidth() int { return max(4, p.width-p.gutter()) }

// Update handles a key. It returns the command and whether the editor
// asks to be closed (the root confirms when there are unsaved changes).
func (p *editorPane) Update(msg tea.KeyPressMsg) (cmd tea.Cmd, close bool) {
	switch p.mode {
	case conflict:
		p.conflictKey(msg)
		return nil, false
	case diffing:
		p.diffKey(msg)
		return nil, false
	}
	k := p.c.Keys
	p.note = ""
	switch {
	case key.Matches(msg, k.Save):
		return p.save(), false
	case key.Matches(msg, k.Back):
		return nil, true
	case key.Matches(msg, k.Undo):
		if !p.buf.undoLast() {
			p.note = "nothing to undo"
		}
	case key.Matches(msg, k.Redo):
		if !p.buf.redoLast() {
			p.note = "nothing to redo"
		}
	default:
		p.bufferKey(msg)
	}
	p.scrollTo(false)
	return nil, false
}

// conflictKey answers a save's conflict: reload the disk's version, see
// the diff, merge, or go on editing.
func (p *editorPane) conflictKey(msg tea.KeyPressMsg) {
	k := p.c.Keys
	switch {
	case key.Matches(msg, k.Reload):
		p.reload()
	case key.Matches(msg, k.Diff):
		p.diff = model.UnifiedDiff(model.SplitLines(string(p.clash.Disk.Data)), model.SplitLines(string(p.buf.bytes())), 3)
		p.diffOffset, p.mode = 0, diffing
	case key.Matches(msg, k.Merge):
		p.merge()
	case key.Matches(msg, k.Back):
		p.mode = editing
		p.note = "still editing: a save will find the disk changed again until you reload or merge"
	}
}

// diffKey scrolls the diff; Back returns to the conflict's choices.
func (p *editorPane) diffKey(msg tea.KeyPressMsg) {
	k := p.c.Keys
	if key.Matches(msg, k.Back) {
		p.mode = conflict
		return
	}
	n := len(p.diff)
	if off, ok := listMove(k, msg, p.diffOffset, p.bodyHeight(), n); ok {
		p.diffOffset = max(0, min(off, n-p.bodyHeight()))
	}
}

// bufferKey moves the cursor or edits the text: the keys of a plain
// text field, which are not remapped.
func (p *editorPane) bufferKey(msg tea.KeyPressMsg) {
	b := p.buf
	switch msg.String() {
	case "up":
		b.vertical(-1)
	case "down":
		b.vertical(1)
	case "left", "ctrl+b":
		b.left()
	case "right", "ctrl+f":
		b.right()
	case "home", "ctrl+a":
		b.home()
	case "end", "ctrl+e":
		b.end()
	case "pgup":
		b.vertical(-(p.bodyHeight() - 1))
	case "pgdown":
		b.vertical(p.bodyHeight() - 1)
	case "ctrl+home":
		b.top()
	case "ctrl+end":
		b.bottom()
	case "ctrl+left", "alt+left", "alt+b":
		b.wordLeft()
	case "ctrl+right", "alt+right", "alt+f":
		b.wordRight()
	case "enter":
		b.insert("\n")
	case "tab":
		b.insert("\t")
	case "backspace", "ctrl+h":
		b.backspace()
	case "delete", "ctrl+d":
		b.deleteForward()
	case "ctrl+k":
		b.deleteToLineEnd()
	default:
		if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
			b.insert(msg.Text)
		}
	}
}

// Paste inserts pasted text.
func (p *editorPane) Paste(text string) {
	if p.mode == editing {
		p.buf.insert(text)
		p.scrollTo(false)
	}
}

func (p *editorPane) save() tea.Cmd {
	if p.saving {
		return nil
	}
	if !p.buf.dirty() && p.base.Version.Exists() {
		p.note = "no changes to save"
		return nil
	}
	if why := p.c.Caps.Save; why != "" {
		p.note = "not saved: " + why
		return nil
	}
	p.saving = true
	p.saveJob++
	job, c, path, data, base := p.saveJob, p.c, p.path, p.buf.bytes(), p.base.Version
	return func() tea.Msg {
		space, done := c.space("save")
		saved, err := space.Save(path, data, base)
		done(err)
		return editorSavedMsg{job: job, saved: saved, data: data, err: err}
	}
}

// Handle takes the result of a save; it returns the command that tells
// the rest of the app the file changed.
func (p *editorPane) Handle(msg editorSavedMsg) tea.Cmd {
	if msg.job != p.saveJob {
		return nil
	}
	p.saving = false
	var clash *vaultfs.ConflictError
	switch {
	case errors.As(msg.err, &clash):
		p.clash, p.mode = clash, conflict
		p.note = ""
		return nil
	case msg.err != nil:
		p.note = "not saved: " + msg.err.Error()
		return nil
	}
	p.base = &vaultfs.Doc{Place: p.base.Place, Path: p.path, Data: msg.data, Version: msg.saved.Version}
	if string(p.buf.bytes()) == string(msg.data) {
		p.buf.markSaved()
	}
	p.note = "saved"
	if msg.saved.Backup != "" {
		p.note += " · the previous version is in " + msg.saved.Backup
	}
	path := p.path
	return func() tea.Msg { return fileSavedMsg{path: path} }
}

// reload replaces the buffer with the disk's version (ours is already in
// the backup folder: the conflict kept it).
func (p *editorPane) reload() {
	disk := p.clash.Disk
	at := bufPos{p.buf.row, p.buf.col}
	p.buf.load(disk.Data)
	p.buf.moveTo(at)
	p.base = disk
	p.mode = editing
	p.note = "reloaded the version on disk"
	if p.clash.Kept != "" {
		p.note += "; yours is kept in " + p.clash.Kept
	}
	p.clash = nil
	p.scrollTo(false)
}

// merge applies the disk's changes and ours to the version both began
// from; it works when they touched different lines. The merge is one edit
// of the buffer (undo takes it back) and becomes the base: the next save
// checks against the disk's version.
func (p *editorPane) merge() {
	disk := p.clash.Disk
	merged, conflicts := model.Merge3(model.SplitLines(string(p.base.Data)), model.SplitLines(string(p.buf.bytes())), model.SplitLines(string(disk.Data)))
	if len(conflicts) > 0 {
		c := conflicts[0]
		where := fmt.Sprintf("line %d", c.BaseFrom)
		if c.BaseTo > c.BaseFrom {
			where = fmt.Sprintf("lines %d–%d", c.BaseFrom, c.BaseTo)
		} else if c.BaseTo < c.BaseFrom {
			where = fmt.Sprintf("after line %d", c.BaseTo)
		}
		p.note = fmt.Sprintf("cannot merge: both versions changed %s of the original", where)
		if len(conflicts) > 1 {
			p.note += fmt.Sprintf(" (and %s)", model.Plural(len(conflicts)-1, "more place", "more places"))
		}
		p.note += "; see the diff, or reload and edit again"
		return
	}
	at := bufPos{p.buf.row, p.buf.col}
	p.buf.replaceAll([]byte(strings.Join(merged, "")))
	p.buf.moveTo(at)
	p.base = disk
	p.mode = editing
	p.clash = nil
	p.note = "merged with the version on disk: check it, then ctrl+s saves"
	p.scrollTo(false)
}

// scrollTo keeps the cursor's row on screen; centre puts it a third of the
// way down (opening at a line).
func (p *editorPane) scrollTo(centre bool) {
	if p.width <= 0 || p.height <= 0 {
		return
	}
	h := p.bodyHeight()
	row, seg := p.buf.row, p.cursorSeg()
	if centre {
		p.top, p.topSeg = row, seg
		p.back(h / 3)
		return
	}
	if row < p.top || row == p.top && seg < p.topSeg {
		p.top, p.topSeg = row, seg
		return
	}
	// Rows from the top to the cursor, inclusive.
	n := 0
	for l := p.top; l <= row && n <= h; l++ {
		first := 0
		if l == p.top {
			first = p.topSeg
		}
		last := len(p.segments(l)) - 1
		if l == row {
			last = seg
		}
		n += last - first + 1
	}
	if n > h {
		p.top, p.topSeg = row, seg
		p.back(h - 1)
	}
}

// back moves the top up by n rows.
func (p *editorPane) back(n int) {
	for ; n > 0; n-- {
		if p.topSeg > 0 {
			p.topSeg--
		} else if p.top > 0 {
			p.top--
			p.topSeg = len(p.segments(p.top)) - 1
		} else {
			return
		}
	}
}

// segments wraps a line into rows of cells, at spaces: a word moves to
// the next row whole when it fits there (one longer than a row is split).
// The cursor's line gets an empty last row when the cursor sits after a
// full one.
func (p *editorPane) segments(line int) [][]cell {
	w := p.textWidth()
	var segs [][]cell
	var cur []cell
	width := 0
	for _, c := range cells(p.buf.lines[line].text) {
		for width+c.width > w && len(cur) > 0 {
			brk := afterLastBlank(cur)
			if brk == 0 || blank(c) {
				// No space to break at (or the break is here): cut the row.
				segs = append(segs, cur)
				cur, width = nil, 0
				break
			}
			segs = append(segs, cur[:brk:brk])
			cur = append([]cell(nil), cur[brk:]...)
			width = 0
			for _, k := range cur {
				width += k.width
			}
		}
		cur = append(cur, c)
		width += c.width
	}
	segs = append(segs, cur)
	if line == p.buf.row && p.buf.col == len(p.buf.lines[line].text) && width >= w {
		segs = append(segs, nil)
	}
	return segs
}

// blank: a space or a tab, where a row may end.
func blank(c cell) bool { return c.text != "" && strings.Trim(c.text, " ") == "" }

// afterLastBlank is the index after the last blank cell of a row, 0 when
// it has none.
func afterLastBlank(row []cell) int {
	for i := len(row) - 1; i >= 0; i-- {
		if blank(row[i]) {
			return i + 1
		}
	}
	return 0
}

// cursorSeg is the row of its line the cursor is on.
func (p *editorPane) cursorSeg() int {
	segs := p.segments(p.buf.row)
	for i := len(segs) - 1; i > 0; i-- {
		if len(segs[i]) == 0 || segs[i][0].off <= p.buf.col {
			return i
		}
	}
	return 0
}

func (p *editorPane) ShortHelp() []key.Binding {
	k := p.c.Keys
	switch p.mode {
	case conflict:
		return []key.Binding{k.Reload, k.Diff, k.Merge, k.Back}
	case diffing:
		return []key.Binding{k.Up, k.Down, k.PageDown, k.Back}
	}
	return []key.Binding{k.Save, k.Undo, k.Redo, k.Back}
}

func (p *editorPane) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{{k.Save, k.Undo, k.Redo, k.Back}, {k.Reload, k.Diff, k.Merge}}
}

// notes are the lines under the text: the conflict's choices, or a line
// about the last action.
func (p *editorPane) notes() []string {
	t := p.c.Theme
	var out []string
	if p.mode == conflict && p.clash != nil {
		what := "changed on disk"
		if !p.clash.Disk.Version.Exists() {
			what = "was deleted"
		}
		out = append(out, t.Error.Render(filepath.Base(p.path)+" "+what+" since it was opened: nothing was written."))
		if p.clash.Kept != "" {
			out = append(out, t.Muted.Render("Your version is kept in "+p.clash.Kept))
		}
		k := p.c.Keys
		choice := func(b key.Binding) string { return t.HelpKey.Render(b.Help().Key) + " " + b.Help().Desc }
		out = append(out, choice(k.Reload)+"   "+choice(k.Diff)+"   "+choice(k.Merge)+"   "+t.HelpKey.Render(k.Back.Help().Key)+" keep editing")
	}
	if p.note != "" {
		out = append(out, t.BadgeCandidate.Render(p.note))
	}
	return out
}

func (p *editorPane) View() string {
	t := p.c.Theme
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(p.header())
	b.WriteByte('\n')
	h := p.bodyHeight()
	if p.mode == diffing {
		b.WriteString(block(p.diffView(h), p.width, h))
	} else {
		b.WriteString(block(p.textView(h), p.width, h))
	}
	for _, n := range p.notes() {
		b.WriteString("\n" + cut(n, p.width))
	}
	return t.App.Render(b.String())
}

// name is the file as the screens name it: its root and its path there.
func (p *editorPane) name() string {
	if pl := p.base.Place; pl.Root != nil {
		return pl.Root.Label() + " " + pl.Rel
	}
	return p.path
}

func (p *editorPane) header() string {
	t := p.c.Theme
	state := ""
	switch {
	case p.saving:
		state = t.Muted.Render(" saving…")
	case p.buf.dirty():
		state = t.BadgeCandidate.Render(" ● modified")
	}
	pos := fmt.Sprintf("  line %d/%d, column %d", p.buf.row+1, len(p.buf.lines), p.buf.column(p.buf.row, p.buf.col)+1)
	if p.mode == diffing {
		pos = "  diff: − on disk, + yours"
	}
	return cut(t.Title.Render("✎ "+inert(p.name()))+state+t.Muted.Render(pos), p.width)
}

// textView draws the visible rows: line numbers, the text, the cursor.
func (p *editorPane) textView(h int) string {
	t := p.c.Theme
	g := p.gutter()
	rows := make([]string, 0, h)
	for line := p.top; line < len(p.buf.lines) && len(rows) < h; line++ {
		segs := p.segments(line)
		first := 0
		if line == p.top {
			first = min(p.topSeg, len(segs)-1)
		}
		for s := first; s < len(segs) && len(rows) < h; s++ {
			num := strings.Repeat(" ", g)
			if s == 0 {
				num = fmt.Sprintf("%*d ", g-1, line+1)
			}
			style := t.Muted
			if line == p.buf.row {
				style = t.HelpKey
			}
			rows = append(rows, style.Render(num)+p.segmentText(line, segs, s))
		}
	}
	return strings.Join(rows, "\n")
}

// segmentText draws one row of a line, with the cursor if it is there.
func (p *editorPane) segmentText(line int, segs [][]cell, s int) string {
	t := p.c.Theme
	var b strings.Builder
	cursorHere := line == p.buf.row && s == p.cursorSeg()
	for _, c := range segs[s] {
		if cursorHere && c.off == p.buf.col {
			b.WriteString(t.Cursor.Render(c.text))
			continue
		}
		b.WriteString(c.text)
	}
	if cursorHere && p.buf.col == len(p.buf.lines[line].text) {
		b.WriteString(t.Cursor.Render(" "))
	}
	return b.String()
}

func (p *editorPane) diffView(h int) string {
	t := p.c.Theme
	if len(p.diff) == 0 {
		return t.Muted.Render("The version on disk and yours are the same.")
	}
	var rows []string
	for _, d := range p.diff[p.diffOffset:min(len(p.diff), p.diffOffset+h)] {
		line := string(d.Kind) + inert(expandTabs(d.Text))
		switch d.Kind {
		case '-':
			line = t.Removed.Render(line)
		case '+':
			line = t.Added.Render(line)
		case '@':
			line = t.Muted.Render(d.Text)
		}
		rows = append(rows, line)
	}
	return strings.Join(rows, "\n")
}
