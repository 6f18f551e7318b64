package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// openObserved opens the demo's session that was observed and has grown
// since.
func openObserved(t *testing.T, a *App) *transcriptPane {
	t.Helper()
	_, man := demoWorkspace(t)
	a.sessions.Select(man.ObservedCandidate.Key)
	press(t, a, "enter")
	p := a.transcript
	if p.ix == nil || p.row.Cursor == nil {
		t.Fatalf("not an observed session: %+v", p.row)
	}
	return p
}

// The divider stands above the first entry at or after ClawVault's byte
// cursor, every entry from there on is marked pending and no entry before
// it is, and its words name the byte, the age and the pending bytes
// against the threshold.
func TestDividerWhereTheCursorStands(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	p := openObserved(t, a)
	cursor := p.row.Cursor.Offset()
	for i, e := range p.ix.Entries {
		if pending := int32(i) >= p.firstPending; pending != (e.Offset >= cursor) {
			t.Fatalf("entry %d at byte %d: pending %v with the cursor at %d", i, e.Offset, pending, cursor)
		}
	}
	if p.firstPending == 0 || int(p.firstPending) == len(p.ix.Entries) {
		t.Fatalf("the demo session should be partly observed: first pending %d of %d", p.firstPending, len(p.ix.Entries))
	}
	if p.divider != int(p.tree.RowOf[p.firstPending]) {
		t.Errorf("divider above row %d, the first pending entry's row is %d", p.divider, p.tree.RowOf[p.firstPending])
	}
	press(t, a, "o")
	if e, _ := p.selectedEntry(); e != p.firstPending {
		t.Errorf("o selected entry %d, the first pending is %d", e, p.firstPending)
	}
	v := viewText(a)
	want := "── observed up to here · byte " + model.Count(cursor) + " · "
	lines := strings.Split(v, "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, want) {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("no divider %q:\n%s", want, v)
	}
	if !strings.Contains(lines[at], "pending of a 50 KiB threshold") {
		t.Errorf("the divider lacks the threshold: %q", lines[at])
	}
	if !strings.HasPrefix(lines[at+1], "+") || strings.HasPrefix(lines[at-1], "+") {
		t.Errorf("the marks do not start below the divider:\n%s\n%s\n%s", lines[at-1], lines[at], lines[at+1])
	}
}

// After a sweep the rescan moves the cursor to the end: the divider goes
// below the last entry and nothing is marked.
func TestDividerFollowsTheScan(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	p := openObserved(t, a)
	row := p.row
	c := *row.Cursor
	c.LastObservedOffset = float64(row.Size)
	row.Cursor = &c
	row.Selection = model.Select(row.Size, &c, 0)
	a.Update(scanDoneMsg{job: a.scanJob, snap: withRow(a, row)})
	if p.divider != len(p.tree.Rows) || int(p.firstPending) != len(p.ix.Entries) {
		t.Errorf("divider %d of %d rows, first pending %d", p.divider, len(p.tree.Rows), p.firstPending)
	}
	press(t, a, "G")
	v := viewText(a)
	if strings.Contains(v, "\n+") || !strings.Contains(v, "0 B pending") {
		t.Errorf("after the sweep:\n%s", v)
	}
}

// withRow is the app's snapshot with one row replaced.
func withRow(a *App, row model.SessionRow) *store.Snapshot {
	snap := *a.snap
	snap.Rows = append([]model.SessionRow(nil), snap.Rows...)
	for i := range snap.Rows {
		if snap.Rows[i].File == row.File && snap.Rows[i].Key == row.Key {
			snap.Rows[i] = row
		}
	}
	return &snap
}

// Whatever row the cursor is on, it stays in the window the divider takes
// a line of, and a click on a row below the divider selects that row.
func TestDividerKeepsTheCursorInView(t *testing.T) {
	t.Parallel()
	a := newApp(t, 80, 16, Options{})
	p := openObserved(t, a)
	onScreen := func() bool {
		e, _ := p.selectedEntry()
		preview := []rune(p.previews[p.ix.Entries[e].Offset].Text)
		return strings.Contains(viewText(a), string(preview[:min(20, len(preview))]))
	}
	press(t, a, "o")
	for range 12 { // up across the divider, then down across it again
		press(t, a, "up")
		if !onScreen() {
			t.Fatalf("the selected row %d is not on screen:\n%s", p.cursor, viewText(a))
		}
	}
	for range 24 {
		press(t, a, "down")
		if !onScreen() {
			t.Fatalf("the selected row %d is not on screen:\n%s", p.cursor, viewText(a))
		}
	}
	// A click on the line below the divider selects the first pending row.
	press(t, a, "o")
	line := p.divider - p.offset + 1 // the divider's own line is divider-offset
	drive(t, a, func() tea.Msg { return tea.MouseClickMsg{Button: tea.MouseLeft, X: 5, Y: paneTop + p.above() + line} })
	if e, _ := p.selectedEntry(); e != p.firstPending {
		t.Errorf("the click selected entry %d, want %d", e, p.firstPending)
	}
}

// A session of the SQLite-era store is marked by clawvault-tui's seq
// cursor, never by a byte offset: the first pending position is the seq
// after the last one observed.
func TestDividerAtTheSeqCursor(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	row := model.SessionRow{Origin: model.OriginSQLite, Generation: &model.Generation{Current: true},
		Selection: model.Selection{NewBytes: 2048, ThresholdBytes: 50 << 10}}
	never := markOf(row, now)
	if never.observed || never.from != 0 || !strings.Contains(never.texts[0], "never observed by seq") || strings.Contains(never.texts[0], "discovery") {
		t.Errorf("no seq cursor: %+v", never)
	}
	row.SeqCursor = &model.SeqCursor{LastSeq: 41, ObservedAt: now.Add(-2 * time.Hour)}
	m := markOf(row, now)
	if !m.observed || m.from != 42 || !strings.HasPrefix(m.texts[0], "observed up to here · seq 41 · 2h") || !strings.Contains(m.texts[0], "pending of a 50 KiB threshold") {
		t.Errorf("seq cursor 41: %+v", m)
	}
	row.Generation.Read.Restart = "the events through seq 41 hold 9 bytes, not the 10 bytes observed: they were rewritten since"
	if m := markOf(row, now); m.observed || m.from != 0 || !strings.Contains(m.texts[0], "seq 41 no longer fits the session: the next sweep reads it all again") {
		t.Errorf("a seq cursor set aside: %+v", m)
	}
	row.Generation.Read.Restart = ""
	row.SeqCursor, row.CursorProblem = nil, "lastObservedSeq is negative"
	if m := markOf(row, now); m.observed || !strings.Contains(m.texts[0], "its seq cursor is ignored (lastObservedSeq is negative)") {
		t.Errorf("an ignored seq cursor: %+v", m)
	}
}
