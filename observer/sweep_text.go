package observer

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"clawvault-tui/model"
)

// ReportLine is one line of a sweep report for people, with the session it
// is about ("" for the others): the CLI prints the text, the TUI's Jobs
// screen also links the line to its session.
type ReportLine struct {
	Text       string
	SessionKey string
}

// TextLines is the report as `observe` prints it.
func (r *SweepReport) TextLines() []ReportLine {
	var out []ReportLine
	add := func(key, format string, args ...any) {
		out = append(out, ReportLine{Text: fmt.Sprintf(format, args...), SessionKey: key})
	}
	if r.Recovered != nil {
		redo := ""
		if len(r.Recovered.Redo) > 0 {
			redo = "; observed again: " + strings.Join(r.Recovered.Redo, ", ")
		}
		add("", "Completed a commit an earlier sweep left half done: %s applied%s.", model.Plural(r.Recovered.CursorsApplied, "cursor", "cursors"), redo)
	}
	switch {
	case r.unselected:
		// Stopped before it looked at a session: its error says why.
	case len(r.Candidates) == 0:
		// The failures and notes below are then what was not even a
		// candidate: SQLite-era sessions with an invalid seq cursor, or
		// sessions left out by --clawvault-compat.
		add("", "No active sessions crossed threshold (%d checked).", r.Checked)
	default:
		add("", "Observed %d/%s of %s with the %s compressor in %s: %s read, %s, %s routed.",
			len(r.Observed), model.Plural(len(r.Candidates)-len(r.Skipped), "session", "sessions"), strings.Join(r.Agents, ", "), r.Compressor,
			r.Duration().Round(time.Millisecond), model.Bytes(r.BytesRead), countTypes(r.Observations, r.ByType), model.Plural(sumRouted(r.Routed), "line", "lines"))
		if r.CancelledWhileCommitting() {
			add("", "%s", r.lateCancelSentence())
		}
		if r.Abandoned > 0 {
			add("", "The sweep stopped within a second of the cancel, before its commit of %s could end: nothing of %s was written, and the next sweep observes %s again.",
				model.Plural(r.Abandoned, "session", "sessions"), them(r.Abandoned), them(r.Abandoned))
		}
		for _, s := range r.Observed {
			out = append(out, s.textLines(r.MaxLineBytes)...)
		}
	}
	// The sessions of an abandoned commit, last in Failed, have their
	// sentence above.
	for _, s := range r.Failed[:max(0, len(r.Failed)-r.Abandoned)] {
		add(s.SessionKey, "! %s (%s): %s", s.SessionKey, s.SessionID, s.Error)
	}
	if len(r.Skipped) > 0 {
		why := "over --max-sessions"
		switch {
		case r.Cancelled:
			why = "not reached before the cancel"
		case r.only:
			why = "not among the sessions confirmed (they crossed their threshold since)"
		}
		add("", "%s %s; the next sweep takes %s.", model.Plural(len(r.Skipped), "candidate", "candidates"), why, them(len(r.Skipped)))
	}
	if len(r.Fallbacks) > 0 {
		add("", "The model failed %s; ClawVault's rules compressed those messages instead.", model.Plural(len(r.Fallbacks), "time", "times"))
	}
	for _, n := range r.Notes {
		add("", "note: %s", n)
	}
	return out
}

// textLines are an observed session's lines of the report: what it read
// and found, where its cursor now stands, and what was skipped.
func (s SessionResult) textLines(maxLineBytes int64) []ReportLine {
	var out []ReportLine
	add := func(format string, args ...any) {
		out = append(out, ReportLine{Text: fmt.Sprintf(format, args...), SessionKey: s.SessionKey})
	}
	line := fmt.Sprintf("- %s [%s] %s → %s", s.SessionKey, s.Source, model.Bytes(s.BytesRead), countTypes(s.Observations, s.ByType))
	if s.Cursor != nil {
		line += fmt.Sprintf("; cursor %d", s.Cursor.LastObservedOffset)
	}
	if s.SeqCursor != nil {
		line += fmt.Sprintf("; seq cursor %d (SQLite-era store, session %s)", s.SeqCursor.LastObservedSeq, shortID(s.SessionID))
	}
	if s.ResetArchive {
		line += fmt.Sprintf(" (reset archive %s)", s.CursorID)
	}
	add("%s", line)
	if lines, files := routedCounts(s.Routed); lines > 0 || len(s.Backlog) > 0 {
		add("    routed %s into %s, %s", model.Plural(lines, "line", "lines"), model.Plural(files, "file", "files"),
			model.Plural(len(s.Backlog), "new backlog item", "new backlog items"))
	}
	if s.MalformedLines > 0 {
		add("    %s skipped", model.Plural(s.MalformedLines, "malformed line", "malformed lines"))
	}
	for _, l := range s.LongLines {
		where := fmt.Sprintf("line %d (byte %d)", l.Line, l.Offset)
		if l.Seq != nil {
			where = fmt.Sprintf("event seq %d", *l.Seq)
		}
		add("    %s skipped: %s, longer than the %s cap (max_line_mb)", where, model.Bytes(l.Bytes), model.Bytes(maxLineBytes))
	}
	for _, f := range s.Fallbacks {
		add("    the rules stood in for the model: %s", f)
	}
	return out
}

// them is the pronoun of n things.
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// CancelledWhileCommitting reports a cancel that came after the last
// session was read and did not stop the commit: every session the sweep
// observed was recorded and none waits for the next sweep, although the
// sweep reports the cancel.
func (r *SweepReport) CancelledWhileCommitting() bool {
	return r.Cancelled && len(r.Skipped) == 0 && len(r.Observed) > 0 && r.Abandoned == 0
}

// lateCancelSentence says what such a cancel did: nothing.
func (r *SweepReport) lateCancelSentence() string {
	what := "all " + model.Plural(len(r.Observed), "session", "sessions") + " were recorded"
	switch {
	case len(r.Observed) == 1 && len(r.Failed) == 0:
		what = "its session was recorded"
	case len(r.Failed) > 0:
		what = "the " + model.Plural(len(r.Observed), "session", "sessions") + " it observed were recorded"
	}
	return "The cancel came while the sweep was committing: " + what + "."
}

// LateCancelSummary is lateCancelSentence for a one-line summary, or ""
// when the cancel was not late.
func (r *SweepReport) LateCancelSummary() string {
	if !r.CancelledWhileCommitting() {
		return ""
	}
	s := r.lateCancelSentence()
	return strings.ToLower(s[:1]) + strings.TrimSuffix(s[1:], ".")
}

func countTypes(total int, byType map[string]int) string {
	if total == 0 {
		return "no observations"
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool {
		if byType[types[i]] != byType[types[j]] {
			return byType[types[i]] > byType[types[j]]
		}
		return types[i] < types[j]
	})
	parts := make([]string, 0, len(types))
	for _, t := range types {
		parts = append(parts, fmt.Sprintf("%s %d", t, byType[t]))
	}
	return fmt.Sprintf("%s (%s)", model.Plural(total, "observation", "observations"), strings.Join(parts, ", "))
}

func routedCounts(files []RoutedFile) (lines, n int) {
	for _, f := range files {
		lines += f.Lines
	}
	return lines, len(files)
}

func sumRouted(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// shortID is a session id's first eight characters: enough to tell the
// generations of a key apart in a report.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
