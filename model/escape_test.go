package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapeControls(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"agent:main:main", "agent:main:main"},
		{"café ✓ 日本 😀", "café ✓ 日本 😀"},
		{"\x1b]0;owned\x07", `\x1b]0;owned\x07`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"two\nlines\r\n", `two\nlines\r\n`},
		{"tab\there", `tab\there`},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"evil\u202egnp.exe", `evil\u202egnp.exe`},
		{"\u2066iso\u2069 \u200emark\u200f \u061c", `\u2066iso\u2069 \u200emark\u200f \u061c`},
		{"line\u2028sep\u2029", `line\u2028sep\u2029`},
		{"bad \x9b[31m byte \xff", `bad \x9b[31m byte \xff`},
		{`a\b`, `a\b`},
		// Invisible format characters: tags (hidden ASCII), the BOM, word
		// joiners; the joiners of an emoji sequence stay.
		{"tag\U000E0041\U000E007F", `tag\U000e0041\U000e007f`},
		{"\ufeffbom \u2060wj \ufff9ann", `\ufeffbom \u2060wj \ufff9ann`},
		{"👩\u200d💻 zw\u200cnj", "👩\u200d💻 zw\u200cnj"},
	} {
		if got := EscapeControls(c.in); got != c.want {
			t.Errorf("EscapeControls(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeControlsText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"two\nlines\tand a tab", "two\nlines\tand a tab"},
		{"crlf\r\nline", "crlf\nline"},
		{"lone\rreturn \x1b[2J", `lone\rreturn \x1b[2J`},
		{"rtl\u202e\n", "rtl\\u202e\n"},
		// A line of a file preview: tabs stay (the pane expands them), a
		// byte that is not UTF-8 shows which byte it is rather than "�",
		// and U+FFFD in the file is text like any other.
		{"tab\tok ünïcode \xff", "tab\tok ünïcode \\xff"},
		{"latin-1 caf\xe9 \ufffd", "latin-1 caf\\xe9 \ufffd"},
		{"del\x7f c1\u0085 nbsp\u00a0", "del\\x7f c1\\u0085 nbsp\u00a0"},
	} {
		if got := EscapeControlsText(c.in); got != c.want {
			t.Errorf("EscapeControlsText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzEscapeControls: nothing that acts on a terminal survives, and text
// without it is unchanged.
func FuzzEscapeControls(f *testing.F) {
	f.Add("\x1b]0;x\x07 \u202e \xff ok")
	f.Add("replacement \ufffd is text")
	f.Fuzz(func(t *testing.T, s string) {
		out := EscapeControls(s)
		if !utf8.ValidString(out) {
			t.Fatalf("%q is not UTF-8", out)
		}
		for _, r := range EscapeControlsText(s) {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || actsOnTerminal(r, len(string(r))) {
				t.Fatalf("EscapeControlsText(%q) keeps %U", s, r)
			}
		}
		clean := true
		for i, r := range out {
			if r < 0x20 || r == 0x7f || actsOnTerminal(r, len(string(r))) {
				t.Fatalf("%q keeps %U at %d", out, r, i)
			}
		}
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r < 0x20 || r == 0x7f || actsOnTerminal(r, size) {
				clean = false
			}
			i += size
		}
		if clean && out != s {
			t.Fatalf("clean %q changed to %q", s, out)
		}
		if !strings.Contains(s, "\\") && !clean && out == s {
			t.Fatalf("%q unchanged", s)
		}
	})
}
