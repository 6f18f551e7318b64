package model

import (
	"strings"
	"time"

	"clawvault-tui/jscompat"
)

// ObservationRow is an observation line of a Markdown file, taken apart
// for a table: the line it is on, its date, time, source and text.
type ObservationRow struct {
	Observation
	// Line is the 1-based line in the file.
	Line int
	// Time is the HH:MM the content starts with ("" without one); Source
	// the observer's [label] tag after it (main, telegram-dm, …).
	Time, Source string
	// Text is the content without the time, the tag and the role.
	Text string
	// Section is the heading above the line (a reflection's "Key
	// Decisions"), "" under a date heading or none.
	Section string
}

// ObservationRows finds every observation line of a Markdown file, in both
// syntaxes, outside code fences: under "## YYYY-MM-DD" headings as in the
// ledger, and anywhere else too (routed category files start with
// "# decisions — YYYY-MM-DD", reflections with "## Key Decisions"). A line
// takes the date of the date heading above it, else the date in the
// file's first heading, else fallbackDate (see DateFromPath).
func ObservationRows(markdown, fallbackDate string) []ObservationRow {
	var out []ObservationRow
	var fence Fence
	date, section := fallbackDate, ""
	for i, raw := range SplitLines(markdown) {
		line := strings.TrimRight(raw, "\r\n")
		if i == 0 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if fence.Code(line) {
			continue
		}
		if d, ok := ParseDateHeading(line); ok {
			date, section = d, ""
			continue
		}
		if _, title, ok := ATXHeading(line); ok {
			if i == 0 {
				if d := findDate(title); d != "" {
					date = d
				}
				continue
			}
			section = title
			continue
		}
		o, ok := ParseObservationLine(jscompat.JSTrim(line), date)
		if !ok {
			continue
		}
		row := ObservationRow{Observation: o, Line: i + 1, Section: section}
		rest := o.Content
		if t := trimClock(rest); t != rest {
			row.Time = rest[:5]
			rest = t
		}
		if t := trimSourceTag(rest); t != rest {
			row.Source = rest[1:strings.IndexByte(rest, ']')]
			rest = t
		}
		row.Text = trimRole(rest)
		out = append(out, row)
	}
	return out
}

// findDate returns the first YYYY-MM-DD in s that is a real date.
func findDate(s string) string {
	for i := 0; i+10 <= len(s); i++ {
		if c := s[i]; c < '0' || c > '9' || (i > 0 && s[i-1] >= '0' && s[i-1] <= '9') {
			continue
		}
		if _, err := time.Parse("2006-01-02", s[i:i+10]); err == nil && (i+10 == len(s) || s[i+10] < '0' || s[i+10] > '9') {
			return s[i : i+10]
		}
	}
	return ""
}

// DateFromPath is the date a memory file's path names: the ledger's
// YYYY/MM/DD.md, or a YYYY-MM-DD name (daily notes, routed category files,
// legacy observations); "" if none.
func DateFromPath(rel string) string {
	parts := strings.Split(strings.TrimSuffix(rel, ".md"), "/")
	if n := len(parts); n >= 3 {
		if d := strings.Join(parts[n-3:], "-"); len(d) == 10 {
			if _, err := time.Parse("2006-01-02", d); err == nil {
				return d
			}
		}
	}
	return findDate(parts[len(parts)-1])
}
