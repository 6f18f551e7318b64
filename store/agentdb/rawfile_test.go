package agentdb_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo/demotest"
)

// openClawStore is a store OpenClaw 2026.9.6's own importer wrote (pi's
// sessions with branches, compactions and compressed rows), from the
// conformance goldens.
func openClawStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), agentdb.FileName)
	demotest.Unzstd(t, filepath.Join("..", "..", "cli", "testdata", "conformance", "openclaw-sqlite", "pi-import.sqlite.zst"), path)
	return path
}

// sessionIDs lists the store's generations that have events.
func sessionIDs(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT DISTINCT session_id FROM transcript_events ORDER BY session_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

// TestTranscriptFromTheFileAsThroughSQL: every transcript of a store
// OpenClaw wrote, and of the demo's, reads to the same entries, facts,
// active branch and tree from the file itself (sqlitefile) as through SQL,
// over one connection and over two.
func TestTranscriptFromTheFileAsThroughSQL(t *testing.T) {
	for name, path := range map[string]string{"openclaw": openClawStore(t), "demo": store(t)} {
		ids := sessionIDs(t, path)
		if len(ids) < 2 {
			t.Fatalf("%s: %d sessions with events", name, len(ids))
		}
		for _, id := range ids {
			restore := agentdb.ReadRaw(false, 0)
			want, err := open(t, path).Transcript(ctx, id)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			for _, two := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/two connections %v", name, id, two), func(t *testing.T) {
					defer agentdb.ReadRaw(true, 0)()
					if two {
						defer agentdb.ReadOverTwoConnections(func() {})()
					}
					reads := 0
					defer agentdb.CountRawReads(&reads)()
					got, err := open(t, path).Transcript(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if reads == 0 {
						t.Error("nothing was read from the file")
					}
					if !slices.Equal(got.Entries, want.Entries) || fmt.Sprint(got.Facts) != fmt.Sprint(want.Facts) || got.FactRows != want.FactRows ||
						!slices.Equal(got.Active, want.Active) || got.ActiveNote != want.ActiveNote || string(got.HeaderJSON) != string(want.HeaderJSON) ||
						!slices.Equal(got.Tree.ActivePath, want.Tree.ActivePath) || got.Tree.Leaf != want.Tree.Leaf {
						t.Errorf("from the file: %d entries, %d fact rows, active %v %q\nthrough SQL: %d entries, %d fact rows, active %v %q",
							len(got.Entries), got.FactRows, got.Active, got.ActiveNote, len(want.Entries), want.FactRows, want.Active, want.ActiveNote)
					}
				})
			}
		}
	}
}

// bigEventsStore is a store whose compressed events spill onto overflow
// pages (their event_utf8_bytes then lies at the chain's end, and the
// frame's header says the size), beside small ones.
func bigEventsStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), agentdb.FileName)
	const sid = "66666666-6666-4666-8666-666666666666"
	lines := [][]byte{header(sid), msg("a0000001", "", "user", "Dump the logs.", 1)}
	parent := "a0000001"
	state := uint64(7)
	for i := range 6 {
		// Words drawn at random from 64 compress by about half: frames of
		// kilobytes.
		var noise []byte
		for len(noise) < 40000+8000*i {
			state = state*6364136223846793005 + 1442695040888963407
			noise = fmt.Appendf(noise, "w%02d%s ", state>>58, strings.Repeat("x", int(state>>61)))
		}
		id := fmt.Sprintf("b%07d", i+1)
		lines = append(lines, msg(id, parent, "assistant", string(noise), i+2))
		parent = id
	}
	oneSessionStore(t, path, sid, lines)
	if n := countOf(t, path, `SELECT count(*) FROM transcript_events WHERE length(event_zstd) > 4096`); n < 6 {
		t.Fatalf("%d compressed events over a page, want 6", n)
	}
	return path
}

// TestStatsFromTheFileAsThroughSQL: every session's counts and bytes, and
// the last event's mark the cache keeps, are the same read from the file
// (sqlitefile) as aggregated by SQL, in one pass and over two connections.
func TestStatsFromTheFileAsThroughSQL(t *testing.T) {
	for name, path := range map[string]string{"openclaw": openClawStore(t), "demo": store(t), "big events": bigEventsStore(t)} {
		t.Run(name, func(t *testing.T) {
			db := open(t, path)
			restore := agentdb.ReadRaw(false, 0)
			want, err := db.BulkStats(ctx)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			for _, two := range []bool{false, true} {
				func() {
					defer agentdb.ReadRaw(true, 0)()
					if two {
						defer agentdb.ReadOverTwoConnections(func() {})()
					}
					reads := 0
					defer agentdb.CountRawReads(&reads)()
					got, err := db.BulkStats(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if reads != 1 {
						t.Errorf("two connections %v: %d reads from the file, want 1", two, reads)
					}
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("two connections %v: from the file\n%v\nthrough SQL\n%v", two, got, want)
					}
				}()
			}
		})
	}
}
