package jscompat

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The expected values are what Node 22 prints for the same input.
func TestJSText(t *testing.T) {
	t.Run("trim and collapse", func(t *testing.T) {
		for in, want := range map[string]string{
			"  a \t b\n":                 "a b",
			"\u00a0x\u2003\u3000y\ufeff": "x y",
			"clean text":                 "clean text",
			"":                           "",
			" ":                          "",
			"a\u200bb":                   "a\u200bb", // a zero-width space is not \s
		} {
			if got := CollapseJSSpace(in); got != want {
				t.Errorf("CollapseJSSpace(%q) = %q, want %q", in, got, want)
			}
		}
		if got := JSTrim("\u2028 x \u00a0"); got != "x" {
			t.Errorf("JSTrim = %q", got)
		}
	})
	t.Run("UTF-16 lengths and slices", func(t *testing.T) {
		tests := []struct {
			in   string
			n    int
			len  int
			want string
		}{
			{"abc", 2, 3, "ab"},
			{"a😀b", 2, 4, "a\uFFFD"}, // the pair is cut: a lone surrogate, written as U+FFFD
			{"a😀b", 3, 4, "a😀"},
			{"zoë", 10, 3, "zoë"},
			{"", 5, 0, ""},
		}
		for _, tt := range tests {
			if got := UTF16Len(tt.in); got != tt.len {
				t.Errorf("UTF16Len(%q) = %d, want %d", tt.in, got, tt.len)
			}
			if got := SliceUTF16(tt.in, tt.n); got != tt.want {
				t.Errorf("SliceUTF16(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
			}
		}
	})
	t.Run("toLowerCase", func(t *testing.T) {
		for in, want := range map[string]string{
			"ΟΔΟΣ ΣΑΣ Σ İstanbul ΑΣ.Β": "οδος σας σ i\u0307stanbul ασ.β",
			"HEARTBEAT_OK":             "heartbeat_ok",
			"already lower":            "already lower",
		} {
			if got := JSToLower(in); got != want {
				t.Errorf("JSToLower(%q) = %q, want %q", in, got, want)
			}
		}
	})
	t.Run("UTF-8 decoding", func(t *testing.T) {
		for in, want := range map[string]string{
			"\xe2\x82A":         "\uFFFDA",
			"\xff\xfe":          "\uFFFD\uFFFD",
			"\xc0\x80":          "\uFFFD\uFFFD",
			"\xed\xa0\x80":      "\uFFFD\uFFFD\uFFFD",
			"\xf0\x9f\x98":      "\uFFFD",
			"a\xf4\x90\x80\x80": "a\uFFFD\uFFFD\uFFFD\uFFFD",
			"valid ✓":           "valid ✓",
		} {
			if got := DecodeUTF8([]byte(in)); got != want {
				t.Errorf("DecodeUTF8(%q) = %q, want %q", in, got, want)
			}
		}
	})
}

// DecodeUTF8 always yields valid UTF-8, keeps valid input as it is, and
// replaces each invalid byte run with at most one U+FFFD per byte.
func FuzzDecodeUTF8(f *testing.F) {
	f.Add([]byte("\xe2\x82A\xff"))
	f.Add([]byte("ok ✓ \xf0\x9f\x98\x80"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := DecodeUTF8(b)
		if !utf8.ValidString(s) {
			t.Fatalf("invalid output for %q: %q", b, s)
		}
		if utf8.Valid(b) && s != string(b) {
			t.Fatalf("valid input changed: %q → %q", b, s)
		}
		if n := strings.Count(s, "\uFFFD") - strings.Count(string(b), "\uFFFD"); n > len(b) {
			t.Fatalf("%d replacements for %d bytes", n, len(b))
		}
	})
}
