package model

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ObservationFormat says which of ClawVault's two line syntaxes a line uses.
type ObservationFormat uint8

const (
	// ObservationScored is v2.2+: `- [type|c=0.00|i=0.00] content`.
	ObservationScored ObservationFormat = iota + 1
	// ObservationEmoji is the legacy syntax: `🔴 HH:MM content`.
	ObservationEmoji
)

func (f ObservationFormat) String() string {
	switch f {
	case ObservationScored:
		return "scored"
	case ObservationEmoji:
		return "emoji"
	}
	return ""
}

// Observation is one line of ClawVault's observation syntax, as
// parseObservationLine (src/lib/observation-format.ts) reads it.
type Observation struct {
	Type       string // one of ObservationTypes, lower case
	Confidence float64
	Importance float64
	// Content is the text after the bracket (scored) or after the emoji,
	// with the time put back in front ("HH:MM text"), as ClawVault does.
	Content string
	Format  ObservationFormat
	// Priority is the emoji of a legacy line.
	Priority string
}

// ObservationTypes are the types the scored syntax accepts, in ClawVault's
// order.
var ObservationTypes = []string{"decision", "preference", "fact", "commitment", "task", "todo",
	"commitment-unresolved", "milestone", "lesson", "relationship", "project"}

// IsObservationType reports whether s (any case) is a type of the scored
// syntax.
func IsObservationType(s string) bool {
	for _, t := range ObservationTypes {
		if strings.EqualFold(t, s) && isASCII(s) {
			return true
		}
	}
	return false
}

// ParseObservationLine reads one line of an observation file. The line is
// trimmed first, as parseObservationMarkdown trims it; ok is false for a
// line in neither syntax. Matching is ClawVault's regular expressions,
// written out by hand with JavaScript's meaning of \s and `.`:
//
//	^(?:-\s*)?\[(type)\|c=(0(?:\.\d+)?|1(?:\.0+)?)\|i=(…)\]\s+(.+)$   (case-insensitive)
//	^(?:-\s*)?(🔴|🟡|🟢)\s+(\d{2}:\d{2})?\s*(.+)$
func ParseObservationLine(line string) (Observation, bool) {
	s := TrimJS(line)
	if strings.HasPrefix(s, "-") {
		s = trimLeftJS(s[1:])
	}
	if strings.HasPrefix(s, "[") {
		return parseScored(s[1:])
	}
	return parseEmoji(s)
}

func parseScored(s string) (Observation, bool) {
	typ, rest, ok := strings.Cut(s, "|")
	if !ok || !IsObservationType(typ) {
		return Observation{}, false
	}
	c, rest, ok := scoreField(rest, "c=", '|')
	if !ok {
		return Observation{}, false
	}
	i, rest, ok := scoreField(rest, "i=", ']')
	if !ok {
		return Observation{}, false
	}
	// \s+(.+)$: at least one space, then content without a line terminator.
	content := trimLeftJS(rest)
	if len(content) == len(rest) || content == "" || hasLineTerminator(content) {
		return Observation{}, false
	}
	return Observation{Type: strings.ToLower(typ), Confidence: c, Importance: i,
		Content: TrimJS(content), Format: ObservationScored}, true
}

// scoreField reads `c=0.95|` (prefix, a number ClawVault accepts, end).
// The regex allows 0, 0.<digits>, 1 and 1.<zeros>; the prefix is matched
// case-insensitively like the rest of the pattern.
func scoreField(s, prefix string, end byte) (float64, string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return 0, "", false
	}
	s = s[len(prefix):]
	stop := strings.IndexByte(s, end)
	if stop < 0 {
		return 0, "", false
	}
	num := s[:stop]
	if !validScore(num) {
		return 0, "", false
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, "", false
	}
	return f, s[stop+1:], true
}

func validScore(num string) bool {
	if num == "" || (num[0] != '0' && num[0] != '1') {
		return false
	}
	frac := num[1:]
	if frac == "" {
		return true
	}
	if frac[0] != '.' || len(frac) == 1 {
		return false
	}
	for _, d := range frac[1:] {
		if d < '0' || d > '9' || (num[0] == '1' && d != '0') {
			return false
		}
	}
	return true
}

var legacyPriorities = []struct {
	emoji                  string
	importance, confidence float64
}{
	{"🔴", 0.9, 0.9},
	{"🟡", 0.6, 0.8},
	{"🟢", 0.2, 0.7},
}

func parseEmoji(s string) (Observation, bool) {
	for _, p := range legacyPriorities {
		rest, ok := strings.CutPrefix(s, p.emoji)
		if !ok {
			continue
		}
		// \s+(\d{2}:\d{2})?\s*(.+)$ — the spaces may hold line terminators,
		// the content (.+) may not.
		after := trimLeftJS(rest)
		if len(after) == len(rest) || after == "" {
			return Observation{}, false
		}
		var content string
		if text := trimLeftJS(after[min(len(after), 5):]); isClock(after) && text != "" && !hasLineTerminator(text) {
			// The optional time group is taken when content follows it.
			content = after[:5] + " " + TrimJS(text)
		} else if !hasLineTerminator(after) {
			content = TrimJS(after)
		} else {
			return Observation{}, false
		}
		return Observation{Type: InferObservationType(content), Confidence: p.confidence, Importance: p.importance,
			Content: content, Format: ObservationEmoji, Priority: p.emoji}, true
	}
	return Observation{}, false
}

func isClock(s string) bool {
	return len(s) >= 5 && isDigit(s[0]) && isDigit(s[1]) && s[2] == ':' && isDigit(s[3]) && isDigit(s[4])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// jsSpace is JavaScript's \s (WhiteSpace and LineTerminator) as a character
// class for Go's regexp, whose \s is ASCII only.
const jsSpace = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

// The type rules of inferObservationType, in its order. ClawVault's
// patterns are /…/i without the u flag: \b and \w are ASCII and case
// folding is ASCII only, so they run here on an ASCII-lower-cased copy.
var inferRules = []struct {
	typ string
	re  *regexp.Regexp
}{
	{"decision", regexp.MustCompile(`\b(decis(?:ion|ions)?|decid(?:e|ed|ing)|chose|selected|opted|went with|picked)\b`)},
	{"commitment-unresolved", regexp.MustCompile(`\b(?:need to figure out|tbd|to be determined)\b`)},
	{"todo", regexp.MustCompile(`(?:\btodo:` + jsSpace + `*|\bwe need to\b|\bdon't forget(?: to)?\b|\bremember to\b|\bmake sure to\b)`)},
	{"task", regexp.MustCompile(`\b(?:i'?ll|i will|let me|(?:i'?m` + jsSpace + `+)?going to|plan to|should)\b|` +
		`\b(?:by` + jsSpace + `+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)|before` + jsSpace + `+the` + jsSpace + `+\w+|deadline is)\b`)},
	{"commitment", regexp.MustCompile(`\b(commit(?:ment|ted)?|promised|deadline|due|scheduled|will deliver|agreed to)\b`)},
	{"milestone", regexp.MustCompile(`\b(released?|shipped|launched|merged|published|milestone|v\d+\.\d+)\b`)},
	{"preference", regexp.MustCompile(`\b(prefer(?:ence|s|red)?|likes?|dislikes?|default to|always use|never use)\b`)},
	{"lesson", regexp.MustCompile(`\b(learn(?:ed|ing|t)|lesson|insight|realized|discovered|never again)\b`)},
	{"relationship", regexp.MustCompile(`\b(talked to|met with|spoke with|asked|client|partner|teammate|colleague)\b`)},
	{"project", regexp.MustCompile(`\b(project|feature|service|repo|api|roadmap|sprint)\b`)},
}

// InferObservationType is ClawVault's guess at the type of a legacy emoji
// line, from keywords in its content; "fact" when nothing matches.
func InferObservationType(content string) string {
	lower := asciiLower(content)
	for _, r := range inferRules {
		if r.re.MatchString(lower) {
			return r.typ
		}
	}
	return "fact"
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// IsJSSpace is JavaScript's WhiteSpace or LineTerminator: what String.trim
// removes and what \s matches.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// TrimJS is JavaScript's String.prototype.trim.
func TrimJS(s string) string {
	return strings.TrimRightFunc(trimLeftJS(s), IsJSSpace)
}

func trimLeftJS(s string) string { return strings.TrimLeftFunc(s, IsJSSpace) }

// hasLineTerminator: JavaScript's `.` stops at these, so `(.+)$` fails.
func hasLineTerminator(s string) bool {
	return strings.ContainsAny(s, "\n\r\u2028\u2029")
}
