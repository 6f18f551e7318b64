package observer

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// cursorFile writes a cursor file whose s1 entry has the given offset, as
// text (1e19 is written as 1e19).
func (f *fixture) cursorWithOffset(offset string) {
	f.write(store.CursorFile(f.vault), fmt.Sprintf(`{
  "s1": {
    "lastObservedOffset": %s,
    "lastObservedAt": "2026-11-20T10:00:00.000Z",
    "sessionKey": "agent:main:main",
    "lastFileSize": 10
  }
}
`, offset))
}

// A cursor offset beyond int64 (1e19, 1e300) is one ClawVault 3.5.2 keeps
// and finds past the end of the file: it re-reads the file from byte 0 and
// writes the file's size (its conformance run shows it). So do status,
// status --deep and the sweep. Before the fix, the offset converted to
// -2⁶³: pending bytes came out negative (the session was never observed)
// and status --deep panicked slicing the transcript.
func TestHugeCursorOffsetIsPastTheEnd(t *testing.T) {
	t.Parallel()
	for _, offset := range []string{"9007199254740993", "1e19", "1e300"} {
		t.Run(offset, func(t *testing.T) {
			f := newFixture(t)
			path := f.session("agent:main:main", "s1", testdataSession(t))
			size := fileSize(t, path)
			f.cursorWithOffset(offset)

			snap, err := store.Scan(context.Background(), store.OS, f.workspace(), store.ScanOptions{Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			if err := Deepen(context.Background(), store.OS, snap, nil); err != nil {
				t.Fatal(err)
			}
			var row *model.SessionRow
			for i := range snap.Rows {
				if snap.Rows[i].SessionID == "s1" {
					row = &snap.Rows[i]
				}
			}
			if row == nil || !row.Has(model.CodeCursorPastEOF) || row.Pending() != size || row.Tail == nil || row.Tail.Err != "" {
				t.Fatalf("row = %+v", row)
			}
			for _, d := range row.Diagnosis {
				if strings.Contains(d.Message, "-9") {
					t.Errorf("a negative number: %s", d.Message)
				}
			}

			r := f.mustSweep(SweepOptions{})
			if len(r.Observed) != 1 || r.Observed[0].StartOffset != 0 || r.Observed[0].Cursor == nil || r.Observed[0].Cursor.LastObservedOffset == 0 {
				t.Fatalf("observed = %+v", r.Observed)
			}
			st := store.LoadCursors(store.OS, f.vault)
			if c, _ := st.Store.Get("s1"); c.Offset() != r.Observed[0].Cursor.LastObservedOffset {
				t.Errorf("cursor = %+v", c)
			}
		})
	}
}

// A fractional offset: ClawVault 3.5.2 fails the session (Node's read
// stream refuses the start) and keeps the cursor; so does the sweep, with
// a sentence that says what to do, instead of reading from the middle of
// a line.
func TestFractionalCursorOffsetFailsTheSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", testdataSession(t))
	f.cursorWithOffset("12.5")
	before, _ := os.ReadFile(store.CursorFile(f.vault))
	r, _ := f.sweep(context.Background(), SweepOptions{})
	if len(r.Failed) != 1 || !strings.Contains(r.Failed[0].Error, "12.5") || !strings.Contains(r.Failed[0].Error, "whole number") {
		t.Fatalf("failed = %+v", r.Failed)
	}
	after, _ := os.ReadFile(store.CursorFile(f.vault))
	if string(after) != string(before) {
		t.Errorf("the cursor file changed:\n%s", after)
	}
	if f.read("ledger/raw/openclaw/2026/11/21.jsonl") != "" {
		t.Error("the raw ledger was written")
	}
}
