package model

import (
	"fmt"
	"strings"
	"testing"
)

func TestObservationRows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, fallback string
		want                 []string // "line date time type c i source | text | section"
	}{
		{"ledger day", "## 2026-11-20\n\n- [decision|c=0.95|i=0.95] 01:42 [telegram-group] user: Jonas: Decision: keep it.\n- [todo|c=0.78|i=0.60] 02:59 [main] assistant: TODO: send it.\n", "2026-11-21",
			[]string{"3 2026-11-20 01:42 decision 0.95 0.95 telegram-group | Jonas: Decision: keep it. | ", "4 2026-11-20 02:59 todo 0.78 0.60 main | TODO: send it. | "}},
		{"legacy emoji", "## 2026-09-03\r\n\r\n🟡 13:16 Still waiting on [[Priya]].\r\n", "",
			[]string{"3 2026-09-03 13:16 fact 0.80 0.60  | Still waiting on [[Priya]]. | "}},
		{"routed category file", "# decisions — 2026-11-05\n\n- [decision|c=0.90|i=0.90] 09:35 [telegram] user: We decided to move the sync.\n", "2026-11-04",
			[]string{"3 2026-11-05 09:35 decision 0.90 0.90 telegram | We decided to move the sync. | "}},
		{"reflection", "# Week 45, 2026 (Nov 2-Nov 8)\n\n## Key Decisions\n- [milestone|c=0.90|i=0.90] 08:25 [subagent] user: Shipped it.\n", "",
			[]string{"4  08:25 milestone 0.90 0.90 subagent | Shipped it. | Key Decisions"}},
		{"no time, no tag", "- [fact|c=0.50|i=0.10] plain words\n```\n- [fact|c=0.50|i=0.10] in a fence\n```\n", "2026-01-02",
			[]string{"1 2026-01-02  fact 0.50 0.10  | plain words | "}},
		{"nothing", "# notes\n\njust prose\n", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range ObservationRows(tc.text, tc.fallback) {
				got = append(got, fmt.Sprintf("%d %s %s %s %s %s %s | %s | %s", r.Line, r.Date, r.Time, r.Type, FormatScore(r.Confidence), FormatScore(r.Importance), r.Source, r.Text, r.Section))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestDateFromPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ledger/observations/2026/11/20.md":         "2026-11-20",
		"ledger/archive/observations/2026/10/01.md": "2026-10-01",
		"decisions/2026-11-05.md":                   "2026-11-05",
		"people/elena/2026-11-05.md":                "2026-11-05",
		"memory/2026-11-20.md":                      "2026-11-20",
		"MEMORY.md":                                 "",
		"ledger/reflections/2026-W45.md":            "",
		"x/2026/13/40.md":                           "",
	} {
		if got := DateFromPath(in); got != want {
			t.Errorf("DateFromPath(%q) = %q, want %q", in, got, want)
		}
	}
}
