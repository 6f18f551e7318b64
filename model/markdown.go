package model

import "strings"

// ATXHeading recognises `# Heading` (CommonMark: up to three spaces of
// indent, one to six #, then a space, a tab or the end of the line) and
// returns its level and its text without the markers.
func ATXHeading(line string) (level int, text string, ok bool) {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 {
		return 0, "", false
	}
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ' && s[n] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(s[n:])
	// A closing sequence of # preceded by a space is not part of the text.
	if trimmed := strings.TrimRight(text, "#"); trimmed != text && (trimmed == "" || strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t")) {
		text = strings.TrimSpace(trimmed)
	}
	return n, text, true
}

// Fence follows fenced code blocks (``` or ~~~) line by line: headings and
// observation lines inside them are code. The zero value is outside.
type Fence struct {
	char byte // 0 outside a fence
	size int
}

// Inside reports whether the lines now read are in a fence.
func (f *Fence) Inside() bool { return f.char != 0 }

// Opens starts a fence if line is an opening fence.
func (f *Fence) Opens(line string) bool {
	c, n, rest, ok := fenceMarker(line)
	if !ok || (c == '`' && strings.IndexByte(rest, '`') >= 0) {
		return false
	}
	f.char, f.size = c, n
	return true
}

// Next consumes a line inside the fence, closing it on a closing fence.
func (f *Fence) Next(line string) {
	if c, n, rest, ok := fenceMarker(line); ok && c == f.char && n >= f.size && strings.TrimSpace(rest) == "" {
		f.char = 0
	}
}

// Code consumes a line and reports whether it is code: inside a fence, or
// one of its own fence lines.
func (f *Fence) Code(line string) bool {
	if f.Inside() {
		f.Next(line)
		return true
	}
	return f.Opens(line)
}

func fenceMarker(line string) (c byte, n int, rest string, ok bool) {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return 0, 0, "", false
	}
	c = s[0]
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	return c, n, s[n:], true
}
