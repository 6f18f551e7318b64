package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// editBuffer is the text the built-in editor edits. bubbles' textarea is
// not used for this: it rewrites what it is given (a tab becomes four
// spaces, a CRLF two line breaks, invalid UTF-8 and control characters are
// dropped, lines past 10,000 are cut off) and draws every line on every
// frame, so saving a file it opened would change bytes nobody touched.
// Here each line keeps its own ending and its bytes as they were; a line
// is only rewritten when it is edited, and only the visible lines are drawn.
type editBuffer struct {
	lines []bufLine
	// row is the cursor's line; col its byte offset in the line's text,
	// always at a grapheme boundary.
	row, col int
	// goal is the display column up and down aim for.
	goal int
	// eol is the ending new lines get: the file's first line's.
	eol string

	undo, redo []bufEdit
	// state names the text as it is: each edit makes a new one and undo
	// returns to the one before, so the buffer is dirty exactly when state
	// is not the one last loaded or saved.
	state, saved, nextState int
}

// bufLine is one line: its text and its ending ("\n", "\r\n", or "" for
// a last line without one).
type bufLine struct{ text, eol string }

// bufPos is a cursor position.
type bufPos struct{ row, col int }

// bufEdit replaces lines[at:at+len(old)] by new; undoing puts old back.
type bufEdit struct {
	at                 int
	old, new           []bufLine
	before, after      bufPos
	stateBefore, state int
	// typing marks a run of typed characters, which undo takes back whole.
	typing bool
}

// maxUndo bounds the undo history.
const maxUndo = 1000

// tabWidth is how many columns a tab stop is apart.
const tabWidth = 4

func newEditBuffer(data []byte) *editBuffer {
	b := &editBuffer{}
	b.load(data)
	return b
}

// load replaces the text (a reload), clearing the history.
func (b *editBuffer) load(data []byte) {
	text := string(data)
	b.lines = b.lines[:0]
	b.eol = "\n"
	first := true
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			b.lines = append(b.lines, bufLine{text: text})
			break
		}
		l := bufLine{text: text[:i], eol: "\n"}
		if strings.HasSuffix(l.text, "\r") {
			l.text, l.eol = l.text[:len(l.text)-1], "\r\n"
		}
		if first {
			b.eol, first = l.eol, false
		}
		b.lines = append(b.lines, l)
		text = text[i+1:]
	}
	// A final line break ends the last line; it does not start another.
	if n := len(b.lines); n > 1 && b.lines[n-1] == (bufLine{}) {
		b.lines = b.lines[:n-1]
	}
	b.row, b.col, b.goal = min(b.row, len(b.lines)-1), 0, 0
	b.undo, b.redo = nil, nil
	b.nextState++
	b.state, b.saved = b.nextState, b.nextState
}

// bytes is the text as it would be saved.
func (b *editBuffer) bytes() []byte {
	n := 0
	for _, l := range b.lines {
		n += len(l.text) + len(l.eol)
	}
	out := make([]byte, 0, n)
	for _, l := range b.lines {
		out = append(out, l.text...)
		out = append(out, l.eol...)
	}
	return out
}

func (b *editBuffer) dirty() bool { return b.state != b.saved }

// markSaved records that the text as it is now is on disk.
func (b *editBuffer) markSaved() { b.saved = b.state }

// apply replaces n lines at at by repl, moves the cursor to after and
// records the edit for undo.
func (b *editBuffer) apply(at, n int, repl []bufLine, after bufPos, typing bool) {
	old := append([]bufLine(nil), b.lines[at:at+n]...)
	before := bufPos{b.row, b.col}
	b.lines = append(b.lines[:at], append(append([]bufLine(nil), repl...), b.lines[at+n:]...)...)
	b.row, b.col = after.row, after.col
	b.goal = b.column(b.row, b.col)
	b.redo = nil
	// A typed character right after the last one joins its edit (unless
	// the text was saved in between: the save must stay a state of its own).
	if k := len(b.undo) - 1; typing && k >= 0 && b.undo[k].typing && b.undo[k].state == b.state && b.saved != b.state &&
		b.undo[k].after == before && n == 1 && len(repl) == 1 && at == b.undo[k].at && len(b.undo[k].new) == 1 {
		b.undo[k].new = repl
		b.undo[k].after = after
		return
	}
	b.nextState++
	b.undo = append(b.undo, bufEdit{at: at, old: old, new: append([]bufLine(nil), repl...), before: before, after: after,
		stateBefore: b.state, state: b.nextState, typing: typing})
	if len(b.undo) > maxUndo {
		b.undo = b.undo[len(b.undo)-maxUndo:]
	}
	b.state = b.nextState
}

// undoLast takes back the last edit; false when there is none.
func (b *editBuffer) undoLast() bool {
	k := len(b.undo) - 1
	if k < 0 {
		return false
	}
	e := b.undo[k]
	b.undo = b.undo[:k]
	b.lines = append(b.lines[:e.at], append(append([]bufLine(nil), e.old...), b.lines[e.at+len(e.new):]...)...)
	b.row, b.col = e.before.row, e.before.col
	b.goal = b.column(b.row, b.col)
	b.state = e.stateBefore
	b.redo = append(b.redo, e)
	return true
}

// redoLast does again what undo took back.
func (b *editBuffer) redoLast() bool {
	k := len(b.redo) - 1
	if k < 0 {
		return false
	}
	e := b.redo[k]
	b.redo = b.redo[:k]
	b.lines = append(b.lines[:e.at], append(append([]bufLine(nil), e.new...), b.lines[e.at+len(e.old):]...)...)
	b.row, b.col = e.after.row, e.after.col
	b.goal = b.column(b.row, b.col)
	b.state = e.state
	b.undo = append(b.undo, e)
	return true
}

// replaceAll replaces the whole text as one edit (undo takes it back).
func (b *editBuffer) replaceAll(data []byte) {
	repl := newEditBuffer(data).lines
	b.apply(0, len(b.lines), repl, bufPos{0, 0}, false)
}

// insert types s at the cursor; line breaks in s split the line (the
// first part gets the file's line ending, the last keeps the line's own).
func (b *editBuffer) insert(s string) {
	if s == "" {
		return
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	l := b.lines[b.row]
	head, tail := l.text[:b.col], l.text[b.col:]
	parts := strings.Split(s, "\n")
	if len(parts) == 1 {
		b.apply(b.row, 1, []bufLine{{head + s + tail, l.eol}}, bufPos{b.row, b.col + len(s)}, !strings.ContainsAny(s, " \t"))
		return
	}
	repl := make([]bufLine, len(parts))
	repl[0] = bufLine{head + parts[0], b.eol}
	for i := 1; i < len(parts)-1; i++ {
		repl[i] = bufLine{parts[i], b.eol}
	}
	last := parts[len(parts)-1]
	repl[len(parts)-1] = bufLine{last + tail, l.eol}
	b.apply(b.row, 1, repl, bufPos{b.row + len(parts) - 1, len(last)}, false)
}

// backspace deletes the grapheme before the cursor, or joins the line to
// the one above.
func (b *editBuffer) backspace() {
	if b.col > 0 {
		l := b.lines[b.row]
		start := prevBoundary(l.text, b.col)
		b.apply(b.row, 1, []bufLine{{l.text[:start] + l.text[b.col:], l.eol}}, bufPos{b.row, start}, false)
		return
	}
	if b.row == 0 {
		return
	}
	above, l := b.lines[b.row-1], b.lines[b.row]
	b.apply(b.row-1, 2, []bufLine{{above.text + l.text, l.eol}}, bufPos{b.row - 1, len(above.text)}, false)
}

// deleteForward deletes the grapheme under the cursor, or joins the next
// line to this one.
func (b *editBuffer) deleteForward() {
	l := b.lines[b.row]
	if b.col < len(l.text) {
		end := b.col + clusterLen(l.text[b.col:])
		b.apply(b.row, 1, []bufLine{{l.text[:b.col] + l.text[end:], l.eol}}, bufPos{b.row, b.col}, false)
		return
	}
	if b.row == len(b.lines)-1 {
		return
	}
	below := b.lines[b.row+1]
	b.apply(b.row, 2, []bufLine{{l.text + below.text, below.eol}}, bufPos{b.row, b.col}, false)
}

// deleteToLineEnd deletes from the cursor to the end of the line (ctrl+k),
// or the line break when the cursor is at the end.
func (b *editBuffer) deleteToLineEnd() {
	l := b.lines[b.row]
	if b.col == len(l.text) {
		b.deleteForward()
		return
	}
	b.apply(b.row, 1, []bufLine{{l.text[:b.col], l.eol}}, bufPos{b.row, b.col}, false)
}

// Cursor movement.

func (b *editBuffer) left() {
	if b.col > 0 {
		b.col = prevBoundary(b.lines[b.row].text, b.col)
	} else if b.row > 0 {
		b.row--
		b.col = len(b.lines[b.row].text)
	}
	b.goal = b.column(b.row, b.col)
}

func (b *editBuffer) right() {
	if t := b.lines[b.row].text; b.col < len(t) {
		b.col += clusterLen(t[b.col:])
	} else if b.row < len(b.lines)-1 {
		b.row, b.col = b.row+1, 0
	}
	b.goal = b.column(b.row, b.col)
}

// vertical moves n lines (negative: up), keeping the goal column.
func (b *editBuffer) vertical(n int) {
	b.row = max(0, min(len(b.lines)-1, b.row+n))
	b.col = b.offsetAt(b.row, b.goal)
}

func (b *editBuffer) home() { b.col, b.goal = 0, 0 }

func (b *editBuffer) end() {
	b.col = len(b.lines[b.row].text)
	b.goal = b.column(b.row, b.col)
}

// gotoLine puts the cursor at the start of a 1-based line.
func (b *editBuffer) gotoLine(n int) {
	b.row = max(0, min(len(b.lines)-1, n-1))
	b.col, b.goal = 0, 0
}

// moveTo puts the cursor as near a position as the text allows: on the
// grapheme boundary at or before it.
func (b *editBuffer) moveTo(at bufPos) {
	b.row = max(0, min(len(b.lines)-1, at.row))
	t := b.lines[b.row].text
	off := 0
	for off < len(t) {
		n := clusterLen(t[off:])
		if off+n > at.col {
			break
		}
		off += n
	}
	b.col = off
	b.goal = b.column(b.row, b.col)
}

func (b *editBuffer) top()    { b.gotoLine(1) }
func (b *editBuffer) bottom() { b.gotoLine(len(b.lines)); b.end() }

// wordLeft and wordRight move to the start of the previous word, or past
// the end of the next one.
func (b *editBuffer) wordLeft() {
	t := b.lines[b.row].text
	if b.col == 0 {
		b.left()
		return
	}
	i := b.col
	for i > 0 && isSpaceByte(t[i-1]) {
		i--
	}
	for i > 0 && !isSpaceByte(t[i-1]) {
		i--
	}
	for i > 0 && !utf8.RuneStart(t[i]) {
		i--
	}
	b.col = i
	b.goal = b.column(b.row, b.col)
}

func (b *editBuffer) wordRight() {
	t := b.lines[b.row].text
	if b.col == len(t) {
		b.right()
		return
	}
	i := b.col
	for i < len(t) && isSpaceByte(t[i]) {
		i++
	}
	for i < len(t) && !isSpaceByte(t[i]) {
		i++
	}
	for i < len(t) && !utf8.RuneStart(t[i]) {
		i++
	}
	b.col = i
	b.goal = b.column(b.row, b.col)
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }

// Display.

// cell is one grapheme as drawn: what to print and how wide it is.
type cell struct {
	off   int    // byte offset in the line's text
	text  string // what to draw
	width int
}

// cells lays out a line's text: tabs to the next stop, control characters
// and invalid bytes as "�", a grapheme holding an invisible format
// character escaped (inert), other graphemes as they are.
func cells(text string) []cell {
	var out []cell
	col := 0
	for off := 0; off < len(text); {
		n := clusterLen(text[off:])
		g := text[off : off+n]
		c := cell{off: off, text: g}
		switch r, size := utf8.DecodeRuneInString(g); {
		case g == "\t":
			c.width = tabWidth - col%tabWidth
			c.text = strings.Repeat(" ", c.width)
		case r == utf8.RuneError && size <= 1, r < 0x20, r == 0x7f:
			c.text, c.width = "�", 1
		case inert(g) != g: // a format character that hides or reorders text, joined to a letter
			c.text = inert(g)
			c.width = ansi.StringWidth(c.text)
		default:
			c.width = ansi.StringWidth(g)
			if c.width == 0 {
				c.text, c.width = "�", 1 // a lone combining mark or format character
			}
		}
		out = append(out, c)
		col += c.width
		off += n
	}
	return out
}

// column is the display column of byte offset col in a line.
func (b *editBuffer) column(row, col int) int {
	w := 0
	for _, c := range cells(b.lines[row].text) {
		if c.off >= col {
			break
		}
		w += c.width
	}
	return w
}

// offsetAt is the byte offset of the grapheme at display column goal (the
// end of the line when it is shorter).
func (b *editBuffer) offsetAt(row, goal int) int {
	w := 0
	for _, c := range cells(b.lines[row].text) {
		if w+c.width > goal {
			return c.off
		}
		w += c.width
	}
	return len(b.lines[row].text)
}

// clusterLen is the byte length of the first grapheme of s (1 for an
// invalid byte).
func clusterLen(s string) int {
	if s == "" {
		return 0
	}
	if r, size := utf8.DecodeRuneInString(s); r == utf8.RuneError && size <= 1 {
		return 1
	}
	g, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	return max(1, len(g))
}

// prevBoundary is the grapheme boundary before byte offset col.
func prevBoundary(text string, col int) int {
	prev := 0
	for off := 0; off < col; {
		prev = off
		off += clusterLen(text[off:])
	}
	return prev
}
