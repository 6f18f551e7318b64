package model

import (
	"slices"
	"strings"

	"clawvault-tui/jscompat"
)

// DayFile is a day file of observations (ledger/observations/YYYY/MM/DD.md)
// held as ClawVault's merge sees it: per date, the observations in first-seen
// order, each normalized content once.
//
// One deliberate difference: ClawVault rewrites the file from its
// observations alone, so a line that is not an observation (a note written
// by hand, a line with a score typo) vanishes at the next sweep. DayFile keeps
// such lines, after the observations of the date they were under (lines
// before the first heading stay at the top).
type DayFile struct {
	sections map[string]*daySection
	preamble []string
}

type daySection struct {
	records []Observation
	changed []bool         // per record: added or changed since TakeChanged
	keys    map[string]int // normalized content → index in records
	extra   []string
}

// ParseDayFile reads a day file, merging repeated observations of a date as
// deduplicateObservationMarkdown does. keepOther keeps the lines that are not
// observations (see DayFile); without it they are dropped, as ClawVault
// drops them.
func ParseDayFile(markdown string, keepOther bool) *DayFile {
	d := &DayFile{sections: map[string]*daySection{}}
	ForEachMarkdownLine(markdown, func(date, line string, obs *Observation) {
		// A kept line loses stray carriage returns: written back, they
		// would read as line ends.
		line = strings.TrimRight(line, "\r")
		switch {
		case obs != nil:
			d.Merge(*obs)
		case !keepOther:
		case date == "":
			if jscompat.JSTrim(line) != "" {
				d.preamble = append(d.preamble, line)
			}
		default:
			if _, heading := ParseDateHeading(line); !heading && jscompat.JSTrim(line) != "" {
				s := d.section(date)
				s.extra = append(s.extra, line)
			}
		}
	})
	return d
}

func (d *DayFile) section(date string) *daySection {
	s := d.sections[date]
	if s == nil {
		s = &daySection{keys: map[string]int{}}
		d.sections[date] = s
	}
	return s
}

// Merge adds one observation as ClawVault's mergeRecord does: a new
// normalized content is appended to its date; a known one keeps its place
// and takes the higher importance and confidence, the type of the more
// important of the two (the newer on a tie) and the longer text (the older
// on a tie). It reports whether the file changed.
func (d *DayFile) Merge(o Observation) bool {
	o.Content = jscompat.JSTrim(o.Content)
	o.Confidence, o.Importance = Clamp01(o.Confidence), Clamp01(o.Importance)
	s := d.section(o.Date)
	key := NormalizeObservationContent(o.Content)
	i, ok := s.keys[key]
	if !ok {
		s.keys[key] = len(s.records)
		s.records = append(s.records, o)
		s.changed = append(s.changed, true)
		return true
	}
	old := s.records[i]
	merged := old
	if o.Importance >= old.Importance {
		merged.Type = o.Type
	}
	merged.Confidence = max(old.Confidence, o.Confidence)
	merged.Importance = max(old.Importance, o.Importance)
	if jscompat.UTF16Len(old.Content) < jscompat.UTF16Len(o.Content) {
		merged.Content = o.Content
	}
	s.records[i] = merged
	if merged != old {
		s.changed[i] = true
		return true
	}
	return false
}

// TakeChanged returns the observations added or changed since the last
// call (all of them the first time), dates in order, and forgets them.
func (d *DayFile) TakeChanged() []Observation {
	var out []Observation
	for _, date := range d.dates() {
		s := d.sections[date]
		for i, c := range s.changed {
			if c {
				out = append(out, s.records[i])
				s.changed[i] = false
			}
		}
	}
	return out
}

// Empty reports whether Render would give "".
func (d *DayFile) Empty() bool {
	if len(d.preamble) > 0 {
		return false
	}
	for _, s := range d.sections {
		if len(s.records) > 0 || len(s.extra) > 0 {
			return false
		}
	}
	return true
}

// Len is the number of observations.
func (d *DayFile) Len() int {
	n := 0
	for _, s := range d.sections {
		n += len(s.records)
	}
	return n
}

func (d *DayFile) dates() []string {
	dates := make([]string, 0, len(d.sections))
	for date := range d.sections {
		dates = append(dates, date)
	}
	slices.Sort(dates)
	return dates
}

// Render writes the file as renderObservationMarkdown does (dates in order,
// "## date", a blank line, the lines, a blank line; trimmed), with the kept
// lines described on DayFile. Dates without observations are left out unless
// they hold kept lines.
func (d *DayFile) Render() string {
	var chunks []string
	if len(d.preamble) > 0 {
		chunks = append(chunks, d.preamble...)
		chunks = append(chunks, "")
	}
	for _, date := range d.dates() {
		s := d.sections[date]
		if len(s.records) == 0 && len(s.extra) == 0 {
			continue
		}
		chunks = append(chunks, "## "+date, "")
		for _, o := range s.records {
			chunks = append(chunks, RenderObservationLine(o))
		}
		chunks = append(chunks, s.extra...)
		chunks = append(chunks, "")
	}
	// ClawVault trims the result; a kept first line keeps its indentation
	// (trimmed, "  ## 2026-…" would read back as a heading).
	out := strings.TrimRightFunc(strings.Join(chunks, "\n"), jscompat.IsJSSpace)
	if len(d.preamble) == 0 {
		out = jscompat.JSTrim(out)
	}
	return out
}

// RenderObservations renders observations grouped by date exactly as
// renderObservationMarkdown does, with nothing kept beside them.
func RenderObservations(obs []Observation) string {
	d := &DayFile{sections: map[string]*daySection{}}
	for _, o := range obs {
		s := d.section(o.Date)
		s.records = append(s.records, o)
		s.changed = append(s.changed, true)
	}
	return d.Render()
}
