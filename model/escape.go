package model

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// EscapeControls makes text from files safe to print to a terminal: every
// character that could act rather than show is written as an escape, so
// that a session key, file name or observation cannot move the cursor,
// set the title, ring the bell, split a row or reverse the text around it.
//
//   - C0 controls (U+0000–U+001F) and DEL: \n, \r, \t as such, the rest as
//     \x1b and the like;
//   - C1 controls (U+0080–U+009F): \u009b;
//   - invisible format characters (Unicode's Cf: the bidirectional marks,
//     embeddings, overrides and isolates such as U+202E, the tag characters
//     U+E0000–U+E007F that can carry hidden text, U+FEFF, U+2060–U+2064)
//     but the zero-width joiner and non-joiner that emoji and scripts
//     need, and the line and paragraph separators (U+2028, U+2029):
//     \u202e, \U000e0041;
//   - bytes that are not UTF-8 (a lone 0x9b is CSI to some terminals): \x9b.
//
// A backslash stays as it is, so the result is not an escaping that can be
// undone; it is for people. Machine output (--json) is never passed through
// it. Text without such characters is returned as it is, unallocated.
func EscapeControls(s string) string { return escapeControls(s, false) }

// EscapeControlsText is EscapeControls for text shown as a block of lines
// (a message, a summary, a sentence to wrap): newlines and tabs stay,
// "\r\n" becomes "\n", everything else is escaped as EscapeControls does.
func EscapeControlsText(s string) string { return escapeControls(s, true) }

func escapeControls(s string, lines bool) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && !(lines && (c == '\n' || c == '\t')) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if actsOnTerminal(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case lines && (c == '\n' || c == '\t'):
				b.WriteByte(c)
			case lines && c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// dropped: the newline that follows ends the line
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20 || c == 0x7f:
				b.WriteString(`\x`)
				b.WriteString(hex2(c))
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(c))
		case actsOnTerminal(r, size) && r > 0xffff:
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(`\U` + strings.Repeat("0", 8-len(h)) + h)
		case actsOnTerminal(r, size):
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(`\u` + strings.Repeat("0", 4-len(h)) + h)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// actsOnTerminal: a decoded non-ASCII character EscapeControls escapes
// (size 1 with RuneError is a byte that is not UTF-8).
func actsOnTerminal(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r == 0x200c, r == 0x200d: // joiners: emoji sequences and scripts need them
		return false
	case r < 0x600:
		return false // no format character below U+0600 but the soft hyphen, which is harmless
	}
	return unicode.Is(unicode.Cf, r)
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}
