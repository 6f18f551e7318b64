package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
)

// cursorMark is where the observer's cursor stands in an open transcript:
// the Transcript screen draws a divider there and marks the entries after
// it, which the next sweep reads.
//
// Positions are model.Entry.Offset's: a byte offset into a JSONL file,
// where ClawVault's byte cursor points at the first byte it has not read.
// A transcript kept as events (OpenClaw's SQLite-era store) numbers its
// entries by seq instead, and a seq cursor names the last event observed,
// so its first pending position is that seq + 1: markOf turns either kind
// of cursor into the first pending position, and nothing else here knows
// which kind it was.
type cursorMark struct {
	// from is the first pending position: entries at or after it are
	// pending.
	from int64
	// observed: some of the transcript was observed (a divider stands
	// between observed and pending entries); otherwise all of it is
	// pending and the line at the top says why.
	observed bool
	// texts are the divider's words, the fullest first: the divider
	// shows the first that fits.
	texts []string
}

// markOf reads a session row's cursor facts.
func markOf(r model.SessionRow, now time.Time) cursorMark {
	// The pending bytes against the threshold, in a long and a short form.
	var pending [2]string
	if t := r.Selection.ThresholdBytes; t > 0 {
		p := model.Bytes(r.Selection.NewBytes)
		pending = [2]string{fmt.Sprintf("%s pending of a %s threshold", p, model.Bytes(t)), fmt.Sprintf("%s pending of %s", p, model.Bytes(t))}
	}
	if r.Origin == model.OriginSQLite {
		return seqMarkOf(r, now, pending)
	}
	if !r.Discovered && r.Name.Kind != model.FileResetArchive {
		pending[0] = strings.TrimPrefix(pending[0]+" · ClawVault's discovery does not find this file", " · ")
	}
	forms := func(heads ...string) []string { return markForms(pending, heads...) }
	c := r.Cursor
	switch {
	case c == nil && r.CursorProblem != "":
		return cursorMark{texts: forms("never observed: its cursor is ignored ("+r.CursorProblem+")", "never observed (cursor ignored)")}
	case c == nil:
		return cursorMark{texts: forms("never observed", "never observed")}
	case r.Selection.PastEOF:
		return cursorMark{texts: forms(fmt.Sprintf("the cursor at byte %s lies past the end: the next sweep reads it all again", model.Count(c.Offset())),
			"cursor past the end: all pending")}
	}
	at := ""
	if t, ok := c.ObservedAt(); ok {
		at = " · " + ago(now, t)
	}
	n := model.Count(c.Offset())
	return cursorMark{from: r.Selection.StartOffset, observed: true,
		texts: forms("observed up to here · byte "+n+at, "observed up to here · byte "+n+at, "observed to byte "+n+at)}
}

// markForms are a divider's words: each head with the pending bytes (the
// long form after the first head, the short one after the others).
func markForms(pending [2]string, heads ...string) []string {
	var out []string
	for i, h := range heads {
		out = append(out, strings.TrimSuffix(h+" · "+pending[min(i, 1)], " · "))
	}
	return out
}

// seqMarkOf is markOf for a session of the SQLite-era store: clawvault-tui's
// seq cursor names the last event observed, so the first pending position
// is the seq after it. ClawVault has no cursor there (it cannot read the
// store).
func seqMarkOf(r model.SessionRow, now time.Time, pending [2]string) cursorMark {
	forms := func(heads ...string) []string { return markForms(pending, heads...) }
	c := r.SeqCursor
	switch {
	case c == nil && r.CursorProblem != "":
		return cursorMark{texts: forms("never observed: its seq cursor is ignored ("+r.CursorProblem+")", "never observed (seq cursor ignored)")}
	case c == nil:
		return cursorMark{texts: forms("never observed by seq (ClawVault 3.5.2 cannot read this store)", "never observed")}
	case r.Generation != nil && r.Generation.Read.Restart != "":
		return cursorMark{texts: forms(fmt.Sprintf("the seq cursor at seq %s no longer fits the session: the next sweep reads it all again", model.Count(c.LastSeq)),
			"seq cursor set aside: all pending")}
	}
	at := ""
	if !c.ObservedAt.IsZero() {
		at = " · " + ago(now, c.ObservedAt)
	}
	n := model.Count(c.LastSeq)
	return cursorMark{from: c.LastSeq + 1, observed: true,
		texts: forms("observed up to here · seq "+n+at, "observed up to here · seq "+n+at, "observed to seq "+n+at)}
}

// firstPending is the position in ix.Entries (sorted by offset) of the
// first pending entry; len(ix.Entries) when none is.
func (m cursorMark) firstPending(ix *transcript.Index) int32 {
	i, _ := slices.BinarySearchFunc(ix.Entries, m.from, func(e model.Entry, from int64) int {
		switch {
		case e.Offset < from:
			return -1
		case e.Offset > from:
			return 1
		}
		return 0
	})
	return int32(i)
}

// dividerRow is the row of a view the divider goes above: the first row,
// in the view's order, of a pending entry, or len(v.Rows) (below the last
// row) when none is pending. A transcript never observed has it at the
// top. It reads the rows of the pending entries only: the tail, usually.
func dividerRow(v model.TreeView, first int32) int {
	row := len(v.Rows)
	for e := int(first); e < len(v.RowOf); e++ {
		if r := int(v.RowOf[e]); r >= 0 && r < row {
			row = r
		}
	}
	return row
}
