package agentdb_test

import (
	"database/sql"
	"fmt"
	"slices"
	"testing"

	"clawvault-tui/store/agentdb"
)

// moveToTableEnd deletes and writes again, in this order, the main
// session's rows of table at keys (its key column's values): they get the
// highest rowids, after every other session's rows.
func moveToTableEnd(t *testing.T, path, table, key string, keys ...int) {
	t.Helper()
	rw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	rw.SetMaxOpenConns(1) // the temp table lives on the connection
	for _, k := range keys {
		for _, q := range []string{
			`CREATE TEMP TABLE moved AS SELECT * FROM ` + table + ` WHERE session_id = ?1 AND ` + key + ` = ?2`,
			`DELETE FROM ` + table + ` WHERE session_id = ?1 AND ` + key + ` = ?2`,
			`INSERT INTO ` + table + ` SELECT * FROM moved`,
			`DROP TABLE moved`,
		} {
			if _, err := rw.Exec(q, sidMain, k); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
}

// TestIdentitiesInAnyTableOrder: the identities read to the same tree
// (and OpenClaw's branch to the same events) whatever order the table
// holds them in, and however many rows of other sessions lie between
// them, over one connection and over two, through SQL and from the file.
func TestIdentitiesInAnyTableOrder(t *testing.T) {
	want, err := open(t, store(t)).Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		moved    []int // seqs of the main session's identities moved to the table's end
		perEvent int64 // rowidSpanPerEvent
		// active_positions of the main session's branch moved to the table's end
		movedActive []int
	}{
		{"in seq order", nil, 4, nil},
		{"a row after the last seq's", []int{5}, 4, nil},
		{"the first seq's row last", []int{0}, 4, nil},
		{"rows out of seq order between the first and last seq's", []int{5, 2, 13}, 4, nil},
		{"other sessions' rows between", []int{7, 8, 9, 10, 11, 12, 13}, 4, nil},
		{"too many other sessions' rows between", []int{7, 8, 9, 10, 11, 12, 13}, 1, nil},
		{"a branch row after the last position's", nil, 4, []int{3}},
		{"the first position's row last", nil, 4, []int{0}},
		{"other sessions' rows between the branch's", nil, 4, []int{5, 6, 7, 8, 9}},
		{"branch rows out of position order", nil, 4, []int{1, 0, 2, 3, 4, 5, 6, 7, 8, 9}},
	} {
		// One store per order, read four ways (the reads write nothing).
		path := store(t)
		moveToTableEnd(t, path, "transcript_event_identities", "seq", c.moved...)
		moveToTableEnd(t, path, "session_transcript_active_events", "active_position", c.movedActive...)
		for _, how := range []struct{ two, raw bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			t.Run(fmt.Sprintf("%s, two connections %v, from the file %v", c.name, how.two, how.raw), func(t *testing.T) {
				defer agentdb.ReadIdentitiesInTableOrderUpTo(c.perEvent)()
				defer agentdb.ReadRaw(how.raw, 0)()
				if how.two {
					defer agentdb.ReadOverTwoConnections(func() {})()
				}
				got, err := open(t, path).Transcript(ctx, sidMain)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Entries, want.Entries) || !slices.Equal(got.Active, want.Active) || got.FactRows != want.FactRows ||
					fmt.Sprint(got.Facts) != fmt.Sprint(want.Facts) || got.ActiveDiffers {
					t.Errorf("%d entries, %d fact rows, active %v (%s)\n%+v\nwant %d entries, %d fact rows, active %v\n%+v",
						len(got.Entries), got.FactRows, got.Active, got.ActiveNote, got.Entries, len(want.Entries), want.FactRows, want.Active, want.Entries)
				}
				if !slices.Equal(got.Tree.IDs(got.Tree.ActivePath), want.Tree.IDs(want.Tree.ActivePath)) {
					t.Errorf("active path %v, want %v", got.Tree.IDs(got.Tree.ActivePath), want.Tree.IDs(want.Tree.ActivePath))
				}
			})
		}
	}
}
