package model

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"clawvault-tui/jscompat"
)

func TestInferObservationType(t *testing.T) {
	t.Parallel()
	for content, want := range map[string]string{
		"We decided to use PostgreSQL":             "decision",
		"Pricing is TBD":                           "commitment-unresolved",
		"TODO: send the questionnaire":             "todo",
		"I'll send Marco the quote":                "task",
		"send it by Friday":                        "task",
		"The deadline moved":                       "commitment",
		"Shipped the bot v0.3":                     "milestone",
		"Elena prefers email":                      "preference",
		"Lesson learned: back up first":            "lesson",
		"Talked to Elena":                          "relationship",
		"The API returns JSON":                     "project",
		"ok":                                       "fact",
		"decisions are made (decis matches first)": "decision",
		"Realized the cache was stale.":            "lesson",
		"The invoice is due.":                      "commitment",
		"\u212aeep going (Kelvin sign: no match)":  "fact",
	} {
		if got := InferObservationType(content); got != want {
			t.Errorf("InferObservationType(%q) = %s, want %s", content, got, want)
		}
	}
}

func TestNormalizeObservationContent(t *testing.T) {
	for in, want := range map[string]string{
		"22:43 [main] user:  We  DECIDED.": "[main] user: we decided.",
		"no time Here":                     "no time here",
		"9:30 not a time":                  "9:30 not a time",
	} {
		if got := NormalizeObservationContent(in); got != want {
			t.Errorf("NormalizeObservationContent(%q) = %q, want %q", in, got, want)
		}
	}
}

// JavaScript's toFixed rounds an exact tie up; Go's formatting rounds it to
// even. Expected values are Node's.
func TestJSToFixed(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{
		0.125: "0.13", 0.375: "0.38", 0.005: "0.01", 0.015: "0.01", 0.845: "0.84", 1.005: "1.00", 0.285: "0.28", 0.9: "0.90",
		0.72 + 0.12 + 0.06 + 0.06 + 0.05: "1.01", 0: "0.00",
	} {
		if got := JSToFixed(v, 2); got != want {
			t.Errorf("JSToFixed(%v) = %s, want %s", v, got, want)
		}
	}
	if got := FormatScore(math.NaN()); got != "0.00" {
		t.Errorf("FormatScore(NaN) = %s", got)
	}
	if got := FormatScore(1.01); got != "1.00" {
		t.Errorf("FormatScore clamps: %s", got)
	}
}

func TestParseObservationLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, line string
		want       *Observation
	}{
		{"scored", "- [decision|c=0.95|i=0.90] 22:43 [main] user: We chose PostgreSQL.",
			&Observation{Type: "decision", Confidence: 0.95, Importance: 0.9, Content: "22:43 [main] user: We chose PostgreSQL.", Format: ObservationScored}},
		{"scored without dash", "[fact|c=0.72|i=0.20] ok", &Observation{Type: "fact", Confidence: 0.72, Importance: 0.2, Content: "ok", Format: ObservationScored}},
		{"type case folded", "- [TODO|C=1|I=1.00] x", &Observation{Type: "todo", Confidence: 1, Importance: 1, Content: "x", Format: ObservationScored}},
		{"score above one", "- [fact|c=1.5|i=0.5] x", nil},
		{"unknown type", "- [idea|c=0.5|i=0.5] x", nil},
		{"no space before content", "- [fact|c=0.5|i=0.5]x", nil},
		{"empty content", "- [fact|c=0.5|i=0.5]   ", nil},
		{"carriage return inside", "- [fact|c=0.5|i=0.5] a\rb", nil},
		{"emoji with time (\"chosen\" is not \"chose\")", "🔴 14:30 [[PostgreSQL]] chosen over [[MongoDB]].",
			&Observation{Type: "fact", Confidence: 0.9, Importance: 0.9, Content: "14:30 [[PostgreSQL]] chosen over [[MongoDB]].", Format: ObservationEmoji, Priority: "🔴"}},
		{"emoji in a list", "- 🟢 14:50 Server deployed successfully.",
			&Observation{Type: "fact", Confidence: 0.7, Importance: 0.2, Content: "14:50 Server deployed successfully.", Format: ObservationEmoji, Priority: "🟢"}},
		{"emoji, only a time", "🟡 12:00", &Observation{Type: "fact", Confidence: 0.8, Importance: 0.6, Content: "12:00", Format: ObservationEmoji, Priority: "🟡"}},
		{"emoji without space", "🔴12:00 x", nil},
		{"other emoji", "🟠 12:00 x", nil},
		{"heading", "## 2026-03-14", nil},
		{"prose", "plain text", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ParseObservationLine(jscompat.JSTrim(c.line), "")
			if c.want == nil {
				if ok {
					t.Fatalf("parsed %+v, want no observation", got)
				}
				return
			}
			if !ok || got != *c.want {
				t.Fatalf("got %+v (ok=%v), want %+v", got, ok, *c.want)
			}
		})
	}
}

// FuzzParseObservationLine: any line parses without panicking, and the
// hand-written matcher agrees with ClawVault's two regular expressions,
// translated to Go with JavaScript's \s and `.`.
func FuzzParseObservationLine(f *testing.F) {
	for _, s := range []string{"- [decision|c=0.95|i=0.90] x", "[fact|c=1.0|i=0] y", "🔴 14:30 z", "- 🟢 12:00", "🟡 a\u2028b",
		"- [fact|c=0.|i=0.5] x", "🔴 12:30\u2028x", "\ufeff- [fact|c=0.5|i=0.5]\u00a0x", "- [TODO|C=1|I=1] x",
		"[fact|c=0.5|i=0.5] \u2028", "[fact|c=0.5|i=0.5]\n\tx", "-\u3000[lesson|c=1.00|i=0.0] x\u2029", "[task|c=0.5|i=0.5]  ", "[fact|c=00|i=1.5] x", "[fact|c=1.01|i=0.] x"} {
		f.Add(s)
	}
	types := strings.Join(ObservationTypes, "|")
	num := `(0(?:\.[0-9]+)?|1(?:\.0+)?)`
	dot := `[^\n\r\x{2028}\x{2029}]`
	scoredRE := regexp.MustCompile(`^(?:-` + jsSpace + `*)?\[(?i:(` + types + `))\|(?i:c)=` + num + `\|(?i:i)=` + num + `\]` + jsSpace + `+(` + dot + `+)$`)
	emojiRE := regexp.MustCompile(`^(?:-` + jsSpace + `*)?(🔴|🟡|🟢)` + jsSpace + `+([0-9]{2}:[0-9]{2})?` + jsSpace + `*(` + dot + `+)$`)
	f.Fuzz(func(t *testing.T, line string) {
		trimmed := jscompat.JSTrim(line)
		got, ok := ParseObservationLine(trimmed, "")
		if m := scoredRE.FindStringSubmatch(trimmed); m != nil && isASCIIString(m[1]) {
			c, _ := strconv.ParseFloat(m[2], 64)
			i, _ := strconv.ParseFloat(m[3], 64)
			want := Observation{Type: strings.ToLower(m[1]), Confidence: c, Importance: i, Content: jscompat.JSTrim(m[4]), Format: ObservationScored}
			if !ok || got != want {
				t.Fatalf("%q: got %+v (%v), want %+v", line, got, ok, want)
			}
			return
		}
		if m := emojiRE.FindStringSubmatch(trimmed); m != nil {
			content := jscompat.JSTrim(m[3])
			if m[2] != "" {
				content = m[2] + " " + content
			}
			if !ok || got.Format != ObservationEmoji || got.Content != content || got.Priority != m[1] {
				t.Fatalf("%q: got %+v (%v), want content %q", line, got, ok, content)
			}
			return
		}
		if ok {
			t.Fatalf("%q: parsed %+v, but neither regular expression matches", line, got)
		}
	})
}

// jsSpace is JavaScript's \s (WhiteSpace and LineTerminator) as a character
// class for Go's regexp, whose \s is ASCII only.
const jsSpace = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
