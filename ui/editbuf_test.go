package ui

import (
	"bytes"
	"testing"
)

// Loading and saving without an edit gives back the same bytes, whatever
// they are.
func TestEditBufferRoundTrip(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"", "a", "a\n", "a\nb", "a\r\nb\r\n", "mixed\r\nendings\nhere\r\n", "\ttabs\tand  spaces\n",
		"bad \xff\xfe bytes\n", "ctrl \x01\x7f chars\n", "emoji 👩‍💻 and é\n", "\n\n\n",
	} {
		b := newEditBuffer([]byte(text))
		if got := string(b.bytes()); got != text {
			t.Errorf("%q came back as %q", text, got)
		}
		if b.dirty() {
			t.Errorf("%q: dirty after loading", text)
		}
	}
}

func TestEditBufferEdits(t *testing.T) {
	t.Parallel()
	b := newEditBuffer([]byte("one\r\ntwo\r\nthree"))
	b.gotoLine(2)
	b.end()
	b.insert("!")
	b.insert("\nnew")
	if got := string(b.bytes()); got != "one\r\ntwo!\r\nnew\r\nthree" {
		t.Fatalf("got %q", got)
	}
	if !b.dirty() {
		t.Fatal("not dirty after an edit")
	}
	b.home()
	b.backspace() // joins "new" to "two!"
	if got := string(b.bytes()); got != "one\r\ntwo!new\r\nthree" {
		t.Fatalf("after backspace %q", got)
	}
	b.bottom()
	b.deleteForward() // at the very end: nothing
	b.top()
	b.deleteToLineEnd()
	b.deleteToLineEnd() // the line break too
	if got := string(b.bytes()); got != "two!new\r\nthree" {
		t.Fatalf("after ctrl+k %q", got)
	}
	for b.undoLast() {
	}
	if got := string(b.bytes()); got != "one\r\ntwo\r\nthree" || b.dirty() {
		t.Fatalf("undone to %q (dirty %v)", got, b.dirty())
	}
	b.redoLast()
	if got := string(b.bytes()); got != "one\r\ntwo!\r\nthree" || !b.dirty() {
		t.Fatalf("redone to %q", got)
	}
	b.markSaved()
	b.undoLast()
	if !b.dirty() {
		t.Error("undo past the save is not dirty")
	}
	b.redoLast()
	if b.dirty() {
		t.Error("redo back to the saved text is dirty")
	}
	b.insert("a")
	b.markSaved()
	b.insert("b") // typed right after a saved "a": not part of its edit
	if !b.dirty() {
		t.Error("typing after a save is not dirty")
	}
}

// A run of typing is one undo step; a space or a move ends it.
func TestEditBufferUndoTyping(t *testing.T) {
	t.Parallel()
	b := newEditBuffer([]byte("x\n"))
	for _, r := range "hello" {
		b.insert(string(r))
	}
	b.insert(" ")
	for _, r := range "world" {
		b.insert(string(r))
	}
	if got := string(b.bytes()); got != "hello worldx\n" {
		t.Fatalf("got %q", got)
	}
	b.undoLast()
	if got := string(b.bytes()); got != "hello x\n" {
		t.Errorf("one undo left %q", got)
	}
	b.undoLast()
	b.undoLast()
	if got := string(b.bytes()); got != "x\n" {
		t.Errorf("three undos left %q", got)
	}
}

// The cursor moves by grapheme, up and down keep the column, tabs and wide
// characters take their width.
func TestEditBufferMovement(t *testing.T) {
	t.Parallel()
	b := newEditBuffer([]byte("a👩‍💻é\n\tx\nshort\n"))
	b.right()
	b.right()
	if b.col != len("a👩‍💻") {
		t.Fatalf("col %d after two rights", b.col)
	}
	if w := b.column(0, b.col); w != 3 {
		t.Errorf("display column %d, want 3 (a, then a wide emoji)", w)
	}
	b.backspace()
	if got := b.lines[0].text; got != "aé" {
		t.Errorf("backspace over an emoji sequence left %q", got)
	}
	b.end()
	b.vertical(1) // onto "\tx": column 2 is inside the tab
	if b.col != 0 {
		t.Errorf("col %d inside a tab", b.col)
	}
	b.right()
	if w := b.column(1, b.col); w != tabWidth {
		t.Errorf("after a tab the column is %d", w)
	}
	b.wordRight()
	b.vertical(-5)
	if b.row != 0 {
		t.Errorf("row %d", b.row)
	}
	b.gotoLine(99)
	if b.row != 2 || b.col != 0 {
		t.Errorf("gotoLine past the end: %d:%d", b.row, b.col)
	}
	b.left()
	if b.row != 1 || b.col != len("\tx") {
		t.Errorf("left at a line start: %d:%d", b.row, b.col)
	}
}

func TestEditBufferPaste(t *testing.T) {
	t.Parallel()
	b := newEditBuffer([]byte("head tail\n"))
	b.col = len("head ")
	b.insert("one\r\ntwo\nthree ")
	if got := string(b.bytes()); got != "head one\ntwo\nthree tail\n" {
		t.Errorf("got %q", got)
	}
	if b.row != 2 || b.col != len("three ") {
		t.Errorf("cursor %d:%d", b.row, b.col)
	}
}

// Any edits, undone, give back the bytes that were loaded; redone, the
// bytes they made; and no edit touches a line it did not reach.
// FuzzEditBuffer: no sequence of edits and moves puts the cursor outside
// the text, undoing everything goes back as far as the history holds (the
// text as loaded, unless more than maxUndo edits were made: then the text
// as it was before one of them), and redoing everything gives the edited
// text again.
func FuzzEditBuffer(f *testing.F) {
	f.Add("a\r\nb\nc", []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add("\xff\t👩‍💻\n\n", []byte{3, 3, 0, 5, 1, 9})
	f.Add("deep", bytes.Repeat([]byte{1, 4}, maxUndo+10)) // more edits than the history keeps
	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		b := newEditBuffer([]byte(text))
		before := map[string]bool{text: true} // the text before each op
		for i, op := range ops {
			before[string(b.bytes())] = true
			editBufferOp(b, op, i)
			if b.row < 0 || b.row >= len(b.lines) || b.col < 0 || b.col > len(b.lines[b.row].text) {
				t.Fatalf("cursor %d:%d out of the text after op %d", b.row, b.col, op%12)
			}
		}
		edited := string(b.bytes())
		undone := 0
		for b.undoLast() {
			undone++
		}
		got := string(b.bytes())
		switch {
		case undone > maxUndo:
			t.Fatalf("%d edits undone, more than the history's %d", undone, maxUndo)
		case undone < maxUndo && (got != text || b.dirty()):
			t.Fatalf("undoing everything gives %q (dirty %v), want %q", got, b.dirty(), text)
		case undone == maxUndo && !before[got]:
			t.Fatalf("undoing a full history gives %q, a text the edits never had", got)
		}
		for b.redoLast() {
		}
		if got := string(b.bytes()); got != edited {
			t.Fatalf("redoing everything gives %q, want %q", got, edited)
		}
	})
}

// editBufferOp applies one of the fuzzer's operations.
func editBufferOp(b *editBuffer, op byte, i int) {
	switch op % 12 {
	case 0:
		b.insert("x")
	case 1:
		b.insert("\n")
	case 2:
		b.backspace()
	case 3:
		b.deleteForward()
	case 4:
		b.left()
	case 5:
		b.right()
	case 6:
		b.vertical(i%3 - 1)
	case 7:
		b.wordLeft()
	case 8:
		b.wordRight()
	case 9:
		b.deleteToLineEnd()
	case 10:
		b.insert("y z\r\nw")
	case 11:
		b.end()
	}
}

// More edits than the history keeps: undo takes back the last maxUndo,
// and the buffer says it differs from the file.
func TestEditBufferUndoDepth(t *testing.T) {
	t.Parallel()
	b := newEditBuffer([]byte("start"))
	for range maxUndo + 5 {
		b.insert("\n")
	}
	undone := 0
	for b.undoLast() {
		undone++
	}
	if want := "\n\n\n\n\nstart"; undone != maxUndo || string(b.bytes()) != want || !b.dirty() {
		t.Errorf("undid %d edits to %q (dirty %v), want %d to %q, dirty", undone, b.bytes(), b.dirty(), maxUndo, want)
	}
}

func TestEditBufferMoveTo(t *testing.T) {
	t.Parallel()
	b := newEditBuffer([]byte("aé👩‍💻b\nshort\n"))
	for _, tc := range []struct{ at, want bufPos }{
		{bufPos{0, 2}, bufPos{0, 1}}, // inside é: back to its start
		{bufPos{0, 3}, bufPos{0, 3}}, // after é
		{bufPos{0, 5}, bufPos{0, 3}}, // inside the emoji sequence
		{bufPos{0, 99}, bufPos{0, len("aé👩‍💻b")}},
		{bufPos{9, 2}, bufPos{1, 2}}, // past the last line
	} {
		b.moveTo(tc.at)
		if got := (bufPos{b.row, b.col}); got != tc.want {
			t.Errorf("moveTo(%v) = %v, want %v", tc.at, got, tc.want)
		}
	}
	if n := len(b.lines); n != 2 {
		t.Errorf("%d lines, want 2 (the final line break ends line 2)", n)
	}
}
