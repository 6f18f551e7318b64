package jscompat

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ClawVault is JavaScript: its string rules are not Go's. Lengths and
// slices count UTF-16 code units, \s and String.prototype.trim know more
// white space than Go's, and toLowerCase applies Unicode's full mapping with
// a context-sensitive final sigma. The files we share with it (day files,
// routed category files, backlog items) depend on these rules byte for byte.

// IsJSSpace is JavaScript's WhiteSpace and LineTerminator set: what \s
// matches and what String.prototype.trim removes.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00a0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// JSTrim is String.prototype.trim.
func JSTrim(s string) string {
	if s == "" || !isJSSpaceAt(s, 0) && !isJSSpaceEnd(s) {
		return s
	}
	return strings.TrimFunc(s, IsJSSpace)
}

func isJSSpaceAt(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == ' ' || c >= '\t' && c <= '\r'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return IsJSSpace(r)
}

func isJSSpaceEnd(s string) bool {
	c := s[len(s)-1]
	if c < utf8.RuneSelf {
		return c == ' ' || c >= '\t' && c <= '\r'
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return IsJSSpace(r)
}

// CollapseJSSpace is value.replace(/\s+/g, " ").trim(): runs of white space
// become one space, and the ends are trimmed. It returns s itself when there
// is nothing to change.
func CollapseJSSpace(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			clean = false
			break
		}
		if c == ' ' {
			if i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				clean = false
				break
			}
		} else if c >= '\t' && c <= '\r' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return CollapseRuns(s, IsJSSpace)
}

// CollapseRuns replaces each run of separator runes with one space and
// drops those at the ends: s.replace(/[sep]+/g, " ").trim() for a separator
// class that includes the white space trim removes.
func CollapseRuns(s string, sep func(rune) bool) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if sep(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// UTF16Len is a string's .length in JavaScript.
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// SliceUTF16 is s.slice(0, n) in JavaScript. A surrogate pair cut in half
// leaves a lone surrogate, which Node writes to a UTF-8 file as U+FFFD; that
// is what the result holds in its place.
func SliceUTF16(s string, n int) string {
	units := 0
	for i := 0; i < len(s); {
		if units >= n {
			return s[:i]
		}
		c := s[i]
		if c < utf8.RuneSelf {
			units++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			if units+2 > n {
				return s[:i] + "\uFFFD"
			}
			units += 2
		} else {
			units++
		}
		i += size
	}
	return s
}

// JSToLower is String.prototype.toLowerCase: Unicode's full lower-case
// mapping (İ becomes i + combining dot) and the final sigma rule (Σ at the
// end of a word becomes ς).
func JSToLower(s string) string {
	ascii := true
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if c >= 'A' && c <= 'Z' {
			upper = true
		}
	}
	if ascii {
		if !upper {
			return s
		}
		return strings.ToLower(s)
	}
	runes := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range runes {
		switch {
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ':
			if finalSigma(runes, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is Unicode's Final_Sigma condition: a cased letter before
// (skipping case-ignorable characters) and none after.
func finalSigma(runes []rune, i int) bool {
	before := false
	for j := i - 1; j >= 0; j-- {
		if caseIgnorable(runes[j]) {
			continue
		}
		before = cased(runes[j])
		break
	}
	if !before {
		return false
	}
	for j := i + 1; j < len(runes); j++ {
		if caseIgnorable(runes[j]) {
			continue
		}
		return !cased(runes[j])
	}
	return true
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0x00b7, 0x2019:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// DecodeUTF8 decodes bytes as Node's Buffer.toString("utf-8") does (the
// WHATWG decoder): each maximal invalid subsequence becomes one U+FFFD, so a
// truncated three-byte sequence is one replacement where Go's range loop
// would make two.
func DecodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var out strings.Builder
	out.Grow(len(b) + 8)
	needed, seen := 0, 0
	var lower, upper byte = 0x80, 0xBF
	var cp rune
	for i := 0; i < len(b); i++ {
		c := b[i]
		if needed == 0 {
			switch {
			case c < 0x80:
				out.WriteByte(c)
			case c >= 0xC2 && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				} else if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0x0F)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				} else if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x07)
			default:
				out.WriteRune(utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			needed, seen, cp = 0, 0, 0
			lower, upper = 0x80, 0xBF
			out.WriteRune(utf8.RuneError)
			i-- // the byte starts over
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		seen++
		if seen == needed {
			out.WriteRune(cp)
			needed, seen, cp = 0, 0, 0
		}
	}
	if needed != 0 {
		out.WriteRune(utf8.RuneError)
	}
	return out.String()
}
