package recall

import (
	"regexp"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"

	"clawvault-tui/jscompat"
)

// The JavaScript string semantics OpenClaw's memory search relies on:
// UTF-16 lengths and cuts, toLowerCase, NFC, \p{L}\p{N}_ runs, and
// localeCompare for tie-breaking. Scores are compared to 1e-6 and orders
// exactly, so a tie broken another way is a different answer.

var (
	wordRunRE     = jscompat.LazyRegexp(`[\p{L}\p{N}_]+`)
	markWordRunRE = jscompat.LazyRegexp(`[\p{L}\p{M}\p{N}_]+`)
)

// wordRuns is s.match(/[\p{L}\p{N}_]+/gu) (or with \p{M} too): the
// tokens a query is split into.
func wordRuns(s string, withMarks bool) []string {
	if withMarks {
		return markWordRunRE().FindAllString(s, -1)
	}
	return wordRunRE().FindAllString(s, -1)
}

// truncateUTF16 is OpenClaw's truncateUtf16Safe: at most n UTF-16 units,
// never half a surrogate pair (the pair is dropped whole).
func truncateUTF16(s string, n int) string {
	units := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
		i += size
	}
	return s
}

// isASCII reports whether every character is below 128.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func nfc(s string) string { return norm.NFC.String(s) }
func nfd(s string) string { return norm.NFD.String(s) }

func lower(s string) string { return jscompat.JSToLower(s) }

// uniqueStrings keeps the first of each string, in order.
func uniqueStrings(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := in[:0:0]
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

var (
	collatorMu sync.Mutex
	collator   *collate.Collator
)

// localeCompare is String.prototype.localeCompare in Node's default
// locale (ICU's root collation): the tie-breaker of every ordering of
// OpenClaw's memory search.
func localeCompare(a, b string) int {
	if a == b {
		return 0
	}
	if c, ok := asciiPrimary(a, b); ok {
		return c
	}
	collatorMu.Lock()
	defer collatorMu.Unlock()
	if collator == nil {
		collator = collate.New(language.Und)
	}
	return collator.CompareString(a, b)
}

// asciiPrimary decides two ASCII strings the way the root collation does
// when, case aside, they first differ at a letter or digit on both sides:
// everything before is equal, and letters and digits sort as their folded
// bytes there. Punctuation (ordered otherwise by ICU) and everything else
// go to the collator.
func asciiPrimary(a, b string) (int, bool) {
	if !isASCII(a) || !isASCII(b) {
		return 0, false
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		ca, cb := foldASCII(a[i]), foldASCII(b[i])
		if ca == cb {
			continue
		}
		if !alnum(ca) || !alnum(cb) {
			return 0, false
		}
		if ca < cb {
			return -1, true
		}
		return 1, true
	}
	return 0, false
}

func foldASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func alnum(c byte) bool { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') }

// literalMatcher is OpenClaw's literalSearchMatcher: the NFC form of a
// term, case-insensitively, anywhere (or as the whole string).
func literalMatcher(term string, whole bool) *regexp.Regexp {
	lit := regexp.QuoteMeta(nfc(term))
	if whole {
		return regexp.MustCompile(`(?i)^(?:` + lit + `)$`)
	}
	return regexp.MustCompile(`(?i)` + lit)
}

// Words is the query's words as OpenClaw's keyword search splits it
// (letters, digits, underscore).
func Words(q string) []string { return wordRuns(q, false) }

// MarkWords is the same with combining marks kept in words (the path
// search's split).
func MarkWords(q string) []string { return wordRuns(q, true) }

// TrimJS is String.prototype.trim.
func TrimJS(s string) string { return jscompat.JSTrim(s) }
