package model

import (
	"math"
	"testing"
)

func TestParseObservationLine(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want Observation
	}{
		{"- [decision|c=0.95|i=0.90] 22:43 [main] user: We decided.", true,
			Observation{Date: "d", Type: "decision", Confidence: 0.95, Importance: 0.9, Content: "22:43 [main] user: We decided."}},
		{"[TODO|c=1|i=0] upper-case type, bare scores", true, Observation{Date: "d", Type: "todo", Confidence: 1, Importance: 0, Content: "upper-case type, bare scores"}},
		{"- [fact|c=1.5|i=0.20] out of range", false, Observation{}},
		{"- [note|c=0.5|i=0.20] unknown type", false, Observation{}},
		{"- [fact|c=0.50|i=0.20]", false, Observation{}},
		{"- 🔴 14:30 [[PostgreSQL]] chosen for the database.", true,
			Observation{Date: "d", Type: "fact", Confidence: 0.9, Importance: 0.9, Content: "14:30 [[PostgreSQL]] chosen for the database."}}, // "chosen" is not "chose" (spec §7)
		{"🟢 Server deployed successfully.", true, Observation{Date: "d", Type: "fact", Confidence: 0.7, Importance: 0.2, Content: "Server deployed successfully."}},
		{"🟡 14:50 Elena prefers email.", true, Observation{Date: "d", Type: "preference", Confidence: 0.8, Importance: 0.6, Content: "14:50 Elena prefers email."}},
		{"# decisions — 2026-03-14", false, Observation{}},
	}
	for _, tt := range tests {
		got, ok := ParseObservationLine(tt.line, "d")
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("ParseObservationLine(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestInferObservationType(t *testing.T) {
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
