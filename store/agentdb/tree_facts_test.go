package agentdb_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
)

// TestFactRowsAsTextOrRows: the rows whose bodies hold tree facts read as
// one text per chunk give the tree that reading them row by row gives,
// also when one is compressed (read again as a row) or holds a newline
// (the chunk is read again as rows).
func TestFactRowsAsTextOrRows(t *testing.T) {
	for _, newline := range []string{"", "\n"} {
		t.Run(fmt.Sprintf("newline %q", newline), func(t *testing.T) { factRowsAsTextOrRows(t, newline) })
	}
}

func factRowsAsTextOrRows(t *testing.T, newline string) {
	path := filepath.Join(t.TempDir(), agentdb.FileName)
	const sid = "55555555-5555-4555-8555-555555555555"
	lines := [][]byte{
		header(sid),
		msg("a0000001", "", "user", "Warm the cache.", 1),
		// A side append (written over two lines), one big enough that the
		// store compresses it, and a parent that has no event.
		[]byte("{\"type\":\"custom\",\"id\":\"c0000001\"," + newline + "\"parentId\":\"a0000001\",\"customType\":\"x\",\"appendMode\":\"side\",\"timestamp\":\"2026-11-20T08:02:00.000Z\"}"),
		ev("custom", "c0000002", "a0000001", 3, `"customType":"openclaw.cache-ttl","appendMode":"side","data":{"note":"`+strings.Repeat("cache warm ", 200)+`"}`),
		msg("a0000002", "a0000001", "assistant", "Warm.", 4),
		ev("custom", "c0000003", "a0000002", 5, `"customType":"openclaw.cache-ttl","data":{}`),
		msg("a0000003", "a0000009", "user", "And now?", 6),
	}
	oneSessionStore(t, path, sid, lines)
	if compressed := countOf(t, path, `SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL`); compressed != 1 {
		t.Fatalf("%d compressed events, want 1", compressed)
	}
	db := open(t, path)
	got, err := db.Transcript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	restore := agentdb.ReadFactsAsRows()
	want, err := db.Transcript(ctx, sid)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != len(lines) || got.FactRows != want.FactRows || got.FactRows != 5 {
		t.Fatalf("%d entries, %d fact rows (row by row: %d)", len(got.Entries), got.FactRows, want.FactRows)
	}
	for _, e := range got.Entries[2:4] {
		if e.Type != model.TypeCustom || e.Flags&model.FlagSideAppend == 0 {
			t.Errorf("entry at seq %d read as %+v", e.Offset, e)
		}
	}
	if !slices.Equal(got.Entries, want.Entries) || fmt.Sprint(got.Facts) != fmt.Sprint(want.Facts) ||
		!slices.Equal(got.Tree.ActivePath, want.Tree.ActivePath) || got.Tree.Leaf != want.Tree.Leaf || string(got.HeaderJSON) != string(want.HeaderJSON) {
		t.Errorf("as text: %+v\nas rows: %+v", got.Entries, want.Entries)
	}
}
