package observer

import (
	"bytes"
	"path/filepath"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// The JSONL a session left behind when it moved into the store, with every
// entry there (import-verified), is not swept: its store session is. And
// ClawVault's byte cursor on it carries over: the store's session is read
// from the event after the one whose line ended at the cursor, neither
// observed again nor skipped.
func TestSweepAcrossTheImport(t *testing.T) {
	f := newFixture(t)
	lines := opsLines(60)
	f.sqliteAgent(lines)
	jsonl := string(bytes.Join(lines, []byte("\n"))) + "\n"
	path := filepath.Join(f.state, "agents", "ops", "sessions", sqliteSID+".jsonl")
	f.write(path, jsonl)
	observed := sqliteBytes(lines[:41]) // through the line of seq 40
	cv := model.NewCursorStore()
	cv.Set(sqliteSID, model.Cursor{LastObservedOffset: float64(observed), LastObservedAt: "2026-11-21T10:00:00.000Z", SessionKey: "agent:ops:unknown:" + sqliteSID, LastFileSize: float64(observed)})
	f.write(store.CursorFile(f.vault), string(model.MarshalCursorStore(cv)))

	r := f.mustSweep(SweepOptions{Agents: []string{"ops"}, MinNewBytes: 1})
	if len(r.Observed) != 1 || r.Observed[0].File == path {
		t.Fatalf("observed %+v, errors %v; want the store's session alone", r.Observed, r.Errors)
	}
	s := r.Observed[0]
	if s.Messages != 20 || s.StartOffset != observed || s.SeqCursor == nil || s.SeqCursor.LastObservedSeq != 60 {
		t.Errorf("read %d messages from byte %d to seq %v; want the 20 after seq 40, from %d", s.Messages, s.StartOffset, s.SeqCursor, observed)
	}
}
