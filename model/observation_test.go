package model

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestParseObservationLine(t *testing.T) {
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
			got, ok := ParseObservationLine(c.line)
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

func TestInferObservationType(t *testing.T) {
	cases := map[string]string{
		"We decided to move the sync.":  "decision",
		"The date is TBD.":              "commitment-unresolved",
		"TODO: rotate the token.":       "todo",
		"Send it by Friday.":            "task",
		"The invoice is due.":           "commitment",
		"Shipped v0.3.":                 "milestone",
		"Elena prefers email.":          "preference",
		"Realized the cache was stale.": "lesson",
		"Met with Elena.":               "relationship",
		"The API is slow.":              "project",
		"Nothing to see here.":          "fact",
		"\u212aeep going":/* Kelvin sign */ "fact",
	}
	for content, want := range cases {
		if got := InferObservationType(content); got != want {
			t.Errorf("InferObservationType(%q) = %q, want %q", content, got, want)
		}
	}
}

// FuzzParseObservationLine: any line parses without panicking, and the
// hand-written matcher agrees with ClawVault's two regular expressions,
// translated to Go with JavaScript's \s and `.`.
func FuzzParseObservationLine(f *testing.F) {
	for _, s := range []string{"- [decision|c=0.95|i=0.90] x", "[fact|c=1.0|i=0] y", "🔴 14:30 z", "- 🟢 12:00", "🟡 a\u2028b",
		"- [fact|c=0.|i=0.5] x", "🔴 12:30\u2028x", "\ufeff- [fact|c=0.5|i=0.5]\u00a0x", "- [TODO|C=1|I=1] x"} {
		f.Add(s)
	}
	types := strings.Join(ObservationTypes, "|")
	num := `(0(?:\.[0-9]+)?|1(?:\.0+)?)`
	dot := `[^\n\r\x{2028}\x{2029}]`
	scoredRE := regexp.MustCompile(`^(?:-` + jsSpace + `*)?\[(?i:(` + types + `))\|(?i:c)=` + num + `\|(?i:i)=` + num + `\]` + jsSpace + `+(` + dot + `+)$`)
	emojiRE := regexp.MustCompile(`^(?:-` + jsSpace + `*)?(🔴|🟡|🟢)` + jsSpace + `+([0-9]{2}:[0-9]{2})?` + jsSpace + `*(` + dot + `+)$`)
	f.Fuzz(func(t *testing.T, line string) {
		got, ok := ParseObservationLine(line)
		trimmed := TrimJS(line)
		if m := scoredRE.FindStringSubmatch(trimmed); m != nil && isASCII(m[1]) {
			c, _ := strconv.ParseFloat(m[2], 64)
			i, _ := strconv.ParseFloat(m[3], 64)
			want := Observation{Type: strings.ToLower(m[1]), Confidence: c, Importance: i, Content: TrimJS(m[4]), Format: ObservationScored}
			if !ok || got != want {
				t.Fatalf("%q: got %+v (%v), want %+v", line, got, ok, want)
			}
			return
		}
		if m := emojiRE.FindStringSubmatch(trimmed); m != nil {
			content := TrimJS(m[3])
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
