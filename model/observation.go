package model

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"clawvault-tui/jscompat"
)

// The observation syntax of ClawVault 3.5.2 (src/lib/observation-format.ts):
// a day file is a sequence of "## YYYY-MM-DD" headings, each followed by a
// blank line and observation lines, scored ("- [type|c=0.00|i=0.00] text")
// or legacy emoji ("- 🔴 14:30 text").

// ObservationTypes are the scored types, in ClawVault's order.
var ObservationTypes = []string{"decision", "preference", "fact", "commitment", "task", "todo",
	"commitment-unresolved", "milestone", "lesson", "relationship", "project"}

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

// Observation is one observation line.
type Observation struct {
	Date       string // YYYY-MM-DD of the heading it is under
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

// IsObservationType reports whether s (ASCII, any case) is a type of the
// scored syntax.
func IsObservationType(s string) bool {
	for _, t := range ObservationTypes {
		if len(s) == len(t) && strings.EqualFold(t, s) {
			return true
		}
	}
	return false
}

var (
	dateHeadingRE = jscompat.MustJSRegexp(`^##\s+(\d{4}-\d{2}-\d{2})\s*$`, "")
	emojiLineRE   = jscompat.MustJSRegexp(`^(?:-\s*)?(🔴|🟡|🟢)\s+(\d{2}:\d{2})?\s*(.+)$`, "")

	decisionRE       = jscompat.MustJSRegexp(`\b(decis(?:ion|ions)?|decid(?:e|ed|ing)|chose|selected|opted|went with|picked)\b`, "i").Needs("decis", "decid", "chose", "selected", "opted", "went with", "picked")
	preferenceRE     = jscompat.MustJSRegexp(`\b(prefer(?:ence|s|red)?|likes?|dislikes?|default to|always use|never use)\b`, "i").Needs("prefer", "like", "default to", "always use", "never use")
	commitmentRE     = jscompat.MustJSRegexp(`\b(commit(?:ment|ted)?|promised|deadline|due|scheduled|will deliver|agreed to)\b`, "i").Needs("commit", "promised", "deadline", "due", "scheduled", "will deliver", "agreed to")
	todoRE           = jscompat.MustJSRegexp(`(?:\btodo:\s*|\bwe need to\b|\bdon't forget(?: to)?\b|\bremember to\b|\bmake sure to\b)`, "i").Needs("todo:", "we need to", "don't forget", "remember to", "make sure to")
	commitmentTaskRE = jscompat.MustJSRegexp(`\b(?:i'?ll|i will|let me|(?:i'?m\s+)?going to|plan to|should)\b`, "i").Needs("ill", "i'll", "i will", "let me", "going to", "plan to", "should")
	unresolvedRE     = jscompat.MustJSRegexp(`\b(?:need to figure out|tbd|to be determined)\b`, "i").Needs("need to figure out", "tbd", "to be determined")
	deadlineRE       = jscompat.MustJSRegexp(`\b(?:by\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)|before\s+the\s+\w+|deadline is)\b`, "i").Needs(weekdayWords...)
	milestoneRE      = jscompat.MustJSRegexp(`\b(released?|shipped|launched|merged|published|milestone|v\d+\.\d+)\b`, "i").Needs("release", "shipped", "launched", "merged", "published", "milestone", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9")
	lessonRE         = jscompat.MustJSRegexp(`\b(learn(?:ed|ing|t)|lesson|insight|realized|discovered|never again)\b`, "i").Needs("learn", "lesson", "insight", "realized", "discovered", "never again")
	relationshipRE   = jscompat.MustJSRegexp(`\b(talked to|met with|spoke with|asked|client|partner|teammate|colleague)\b`, "i").Needs("talked to", "met with", "spoke with", "asked", "client", "partner", "teammate", "colleague")
	projectRE        = jscompat.MustJSRegexp(`\b(project|feature|service|repo|api|roadmap|sprint)\b`, "i").Needs("project", "feature", "service", "repo", "api", "roadmap", "sprint")
	leadingTimeRE    = jscompat.MustJSRegexp(`^\d{2}:\d{2}\s+`, "")
)

// weekdayWords are what a deadline phrase ("by Friday", "before the …",
// "deadline is") must contain; Needs for the deadline rules.
var weekdayWords = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "tomorrow", "before", "deadline is"}

// WeekdayWords returns the words of weekdayWords, for the observer's
// deadline rule.
func WeekdayWords() []string { return weekdayWords }

// InferObservationType is inferObservationType: the first rule that
// matches, in ClawVault's order, else fact.
func InferObservationType(content string) string {
	return InferObservationTypeText(jscompat.NewText(content))
}

// InferObservationTypeText is InferObservationType on a prepared text.
func InferObservationTypeText(t *jscompat.Text) string {
	switch {
	case decisionRE.MatchText(t):
		return "decision"
	case unresolvedRE.MatchText(t):
		return "commitment-unresolved"
	case todoRE.MatchText(t):
		return "todo"
	case commitmentTaskRE.MatchText(t) || deadlineRE.MatchText(t):
		return "task"
	case commitmentRE.MatchText(t):
		return "commitment"
	case milestoneRE.MatchText(t):
		return "milestone"
	case preferenceRE.MatchText(t):
		return "preference"
	case lessonRE.MatchText(t):
		return "lesson"
	case relationshipRE.MatchText(t):
		return "relationship"
	case projectRE.MatchText(t):
		return "project"
	}
	return "fact"
}

// NormalizeObservationContent is normalizeObservationContent, the key of
// ClawVault's per-day dedup: without a leading HH:MM, white space
// collapsed, lower-cased.
func NormalizeObservationContent(content string) string {
	return jscompat.JSToLower(jscompat.CollapseJSSpace(leadingTimeRE.ReplaceFirst(content, "")))
}

// ParseDateHeading returns the date of a "## YYYY-MM-DD" heading.
func ParseDateHeading(line string) (string, bool) {
	if !strings.HasPrefix(line, "##") {
		return "", false
	}
	m := dateHeadingRE.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// ParseObservationLine is parseObservationLine: a scored line, or a legacy
// emoji line whose importance and confidence come from its colour and whose
// type is inferred. Like ClawVault's, it expects a trimmed line (JSTrim).
func ParseObservationLine(line, date string) (Observation, bool) {
	// Both expressions start with an optional dash and white space, then
	// the scored line's [ or the emoji: most lines of a vault are told
	// apart there, and a scored line is read by hand (scoredLine), which
	// cost a search index build a twentieth of its instructions as an
	// expression.
	body := line
	if strings.HasPrefix(body, "-") {
		body = strings.TrimLeftFunc(body[1:], jscompat.IsJSSpace)
	}
	if strings.HasPrefix(body, "[") {
		typ, c, i, content, ok := scoredLine(body)
		if !ok {
			return Observation{}, false
		}
		return Observation{
			Date:       date,
			Type:       jscompat.JSToLower(typ),
			Confidence: Clamp01(parseJSFloat(c)),
			Importance: Clamp01(parseJSFloat(i)),
			Content:    jscompat.JSTrim(content),
			Format:     ObservationScored,
		}, true
	}
	if !strings.HasPrefix(body, "🔴") && !strings.HasPrefix(body, "🟡") && !strings.HasPrefix(body, "🟢") {
		return Observation{}, false
	}
	m := emojiLineRE.FindStringSubmatch(line)
	if m == nil {
		return Observation{}, false
	}
	text := jscompat.JSTrim(m[3])
	content := text
	if t := jscompat.JSTrim(m[2]); t != "" {
		content = t + " " + text
	}
	o := Observation{Date: date, Type: InferObservationType(content), Content: content, Format: ObservationEmoji, Priority: m[1]}
	switch m[1] {
	case "🔴":
		o.Importance, o.Confidence = 0.9, 0.9
	case "🟡":
		o.Importance, o.Confidence = 0.6, 0.8
	default:
		o.Importance, o.Confidence = 0.2, 0.7
	}
	return o, true
}

// scoredLine matches ClawVault's expression for a scored line,
//
//	/^(?:-\s*)?\[(decision|preference|fact|commitment|task|todo|commitment-unresolved|milestone|lesson|relationship|project)\|c=(0(?:\.\d+)?|1(?:\.0+)?)\|i=(0(?:\.\d+)?|1(?:\.0+)?)\]\s+(.+)$/i
//
// after its optional dash (body starts with "["): [type|c=N|i=N], white
// space, and content with no line terminator to the end. It returns the expression's groups.
// Each group ends where the expression's next literal first occurs (no
// type or number holds a | or a ]), so the expression's backtracking
// never finds another split. FuzzParseObservationLine holds it to the
// expression.
func scoredLine(body string) (typ, c, i, content string, ok bool) {
	s := body[1:]
	bar := strings.IndexByte(s, '|')
	if bar < 0 || !IsObservationType(s[:bar]) {
		return "", "", "", "", false
	}
	typ, s = s[:bar], s[bar+1:]
	if len(s) < 2 || s[0]|0x20 != 'c' || s[1] != '=' {
		return "", "", "", "", false
	}
	bar = strings.IndexByte(s, '|')
	if bar < 0 || !isScoreNumber(s[2:bar]) {
		return "", "", "", "", false
	}
	c, s = s[2:bar], s[bar+1:]
	if len(s) < 2 || s[0]|0x20 != 'i' || s[1] != '=' {
		return "", "", "", "", false
	}
	end := strings.IndexByte(s, ']')
	if end < 0 || !isScoreNumber(s[2:end]) {
		return "", "", "", "", false
	}
	i, s = s[2:end], s[end+1:]
	// \s+(.+)$: the white space, then at least one character and no line
	// terminator to the end; when the white space runs to the end, .+
	// takes back its last character.
	content = strings.TrimLeftFunc(s, jscompat.IsJSSpace)
	if len(content) == len(s) {
		return "", "", "", "", false
	}
	if content == "" {
		_, size := utf8.DecodeLastRuneInString(s)
		content = s[len(s)-size:]
	}
	if strings.ContainsAny(content, "\n\r\u2028\u2029") {
		return "", "", "", "", false
	}
	return typ, c, i, content, true
}

// isScoreNumber is the expression's 0(?:\.\d+)?|1(?:\.0+)? matching all of s.
func isScoreNumber(s string) bool {
	switch {
	case s == "0" || s == "1":
		return true
	case len(s) < 3 || s[1] != '.' || s[0] != '0' && s[0] != '1':
		return false
	}
	for k := 2; k < len(s); k++ {
		if s[k] < '0' || s[k] > '9' || s[0] == '1' && s[k] != '0' {
			return false
		}
	}
	return true
}

// ParseObservationMarkdown is parseObservationMarkdown: every observation
// line under a date heading, in file order.
func ParseObservationMarkdown(markdown string) []Observation {
	var out []Observation
	ForEachMarkdownLine(markdown, func(date, line string, obs *Observation) {
		if obs != nil {
			out = append(out, *obs)
		}
	})
	return out
}

// ForEachMarkdownLine walks a day file as ClawVault reads it (split on
// \r?\n): fn sees each line with the date of the heading above it ("" before
// the first), and the observation it holds, if any. Headings are reported
// with obs nil and line set.
func ForEachMarkdownLine(markdown string, fn func(date, line string, obs *Observation)) {
	date := ""
	for {
		i := strings.IndexByte(markdown, '\n')
		line := markdown
		if i >= 0 {
			line = strings.TrimSuffix(markdown[:i], "\r")
		}
		if d, ok := ParseDateHeading(line); ok {
			date = d
			fn(date, line, nil)
		} else if date == "" {
			fn("", line, nil)
		} else if o, ok := ParseObservationLine(jscompat.JSTrim(line), date); ok {
			fn(date, line, &o)
		} else {
			fn(date, line, nil)
		}
		if i < 0 {
			return
		}
		markdown = markdown[i+1:]
	}
}

// RenderObservationLine is renderScoredObservationLine.
func RenderObservationLine(o Observation) string {
	return "- [" + o.Type + "|c=" + FormatScore(o.Confidence) + "|i=" + FormatScore(o.Importance) + "] " + jscompat.JSTrim(o.Content)
}

// FormatScore is clamp01(value).toFixed(2).
func FormatScore(v float64) string { return JSToFixed(Clamp01(v), 2) }

// Clamp01 is ClawVault's clamp01: non-finite becomes 0.
func Clamp01(v float64) float64 {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0
	case v < 0:
		return 0
	case v > 1:
		return 1
	}
	return v
}

// JSToFixed is Number.prototype.toFixed for 0 ≤ v < 1e21: the exact value
// rounded to digits decimals, ties away from zero (Go's formatting rounds
// exact ties to even; JavaScript picks the larger).
func JSToFixed(v float64, digits int) string {
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return s
	}
	// Only an exact tie can differ: check with the exact binary value.
	exact := new(big.Float).SetPrec(0).SetFloat64(v)
	scale := new(big.Float).SetPrec(2048).SetFloat64(math.Pow(10, float64(digits)))
	scaled := new(big.Float).SetPrec(2048).Mul(exact, scale)
	floor, _ := scaled.Int(nil)
	frac := new(big.Float).SetPrec(2048).Sub(scaled, new(big.Float).SetPrec(2048).SetInt(floor))
	if frac.Cmp(big.NewFloat(0.5)) != 0 {
		return s
	}
	n := floor.Add(floor, big.NewInt(1)).String()
	for len(n) <= digits {
		n = "0" + n
	}
	if digits == 0 {
		return n
	}
	return n[:len(n)-digits] + "." + n[len(n)-digits:]
}

// parseJSFloat is Number.parseFloat on the scores the line regexp admits.
func parseJSFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}
