package agentdb_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"clawvault-tui/store/agentdb"
)

// writer opens the store as the gateway does: read-write, WAL, and here
// with no busy timeout, so that being blocked is an immediate error.
func writer(t *testing.T, path string) *sql.DB {
	t.Helper()
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	t.Cleanup(func() { w.Close() })
	return w
}

func appendEvent(ctx context.Context, x interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, seq int) error {
	_, err := x.ExecContext(ctx, `INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?, ?, ?, 0, ?)`,
		sidCron, seq, `{"type":"custom","id":"x","parentId":"d0000002"}`, 46)
	return err
}

// TestReadWhileGatewayWrites: in WAL mode a reader and the gateway's writer
// never wait for each other, and a read sees one consistent snapshot.
func TestReadWhileGatewayWrites(t *testing.T) {
	for _, raw := range []bool{false, true} {
		t.Run(fmt.Sprintf("from the file %v", raw), func(t *testing.T) {
			defer agentdb.ReadRaw(raw, 0)()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang, not a measurement
			defer cancel()
			path := store(t)
			w := writer(t, path)
			db := open(t, path)

			// 1. The gateway holds a write transaction: every read still works, and
			// sees none of it.
			tx, err := w.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.ExecContext(ctx, `SELECT 1`); err != nil { // sqlite starts the transaction lazily
				t.Fatal(err)
			}
			if err := appendEvent(ctx, tx, 3); err != nil {
				t.Fatal(err)
			}
			st, err := db.SessionStats(ctx, sidCron, -1)
			if err != nil {
				t.Fatalf("a read during the gateway's write transaction: %v", err)
			}
			if st.Events != 3 {
				t.Errorf("the read sees %d events: the uncommitted one leaked", st.Events)
			}
			if _, err := db.Transcript(ctx, sidMain); err != nil {
				t.Fatalf("a tree read during the gateway's write transaction: %v", err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}

			// 2. A read in progress (an open statement holds its snapshot) does not
			// stop the gateway from committing, and keeps seeing its snapshot.
			var seen []int64
			err = db.Events(ctx, sidCron, -1, 0, func(ev agentdb.Event) bool {
				seen = append(seen, ev.Seq)
				if ev.Seq == 0 {
					if err := appendEvent(ctx, w, 4); err != nil {
						t.Errorf("the gateway's commit during a read: %v", err)
					}
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(seen) != 4 {
				t.Errorf("the read saw seqs %v; its snapshot has 4 events (0–3), the commit made during it a fifth", seen)
			}
			if st, _ := db.SessionStats(ctx, sidCron, -1); st.Events != 5 {
				t.Errorf("a new read sees %d events, want 5", st.Events)
			}
		})
	}
}

func fileHash(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "absent"
	}
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return string(sum[:])
}

// TestReadingChangesNoByte: every read leaves the database file and its
// write-ahead log byte for byte as they were, with the gateway's writer
// open and committed frames in the log. (The -shm file is the index WAL
// readers keep their read marks in: reading uses it, as every reader does.)
func TestReadingChangesNoByte(t *testing.T) {
	for _, raw := range []bool{false, true} {
		t.Run(fmt.Sprintf("from the file %v", raw), func(t *testing.T) {
			defer agentdb.ReadRaw(raw, 0)()
			path := store(t)
			w := writer(t, path)
			for seq := 3; seq < 6; seq++ {
				if err := appendEvent(ctx, w, seq); err != nil {
					t.Fatal(err)
				}
			}
			before := []string{fileHash(t, path), fileHash(t, path+"-wal")}
			if before[1] == "absent" {
				t.Fatal("the write-ahead log should hold the gateway's commits")
			}
			db := open(t, path)
			if _, _, err := db.Sessions(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Stats(ctx, nil); err != nil {
				t.Fatal(err)
			}
			for _, sid := range []string{sidMain, sidCron, sidOld} {
				tr, err := db.Transcript(ctx, sid)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range tr.Entries {
					if _, err := db.Body(ctx, sid, e.Offset); err != nil {
						t.Fatal(err)
					}
				}
			}
			list, _ := db.Archives(ctx)
			for _, a := range list {
				if _, err := db.ArchiveJSONL(ctx, a); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.MemoryIndex(ctx); err != nil {
				t.Fatal(err)
			}
			db.Close()
			after := []string{fileHash(t, path), fileHash(t, path+"-wal")}
			if before[0] != after[0] || before[1] != after[1] {
				t.Error("reading changed the database file or its write-ahead log")
			}
		})
	}
}

// TestTranscriptOverTwoConnections: a transcript read over two connections
// is the one read over one; when the gateway writes between the two
// transactions' first reads, everything comes from the first one's
// snapshot (the second would see OpenClaw's active branch cut short).
func TestTranscriptOverTwoConnections(t *testing.T) {
	for _, raw := range []bool{false, true} {
		t.Run(fmt.Sprintf("from the file %v", raw), func(t *testing.T) {
			defer agentdb.ReadRaw(raw, 0)()
			path := store(t)
			want, err := open(t, path).Transcript(ctx, sidMain)
			if err != nil {
				t.Fatal(err)
			}
			same := func(t *testing.T, got *agentdb.Transcript) {
				t.Helper()
				if !slices.Equal(got.Entries, want.Entries) || !slices.Equal(got.Active, want.Active) || got.FactRows != want.FactRows ||
					got.LastSeq != want.LastSeq || got.ActiveDiffers || got.ActiveNote != want.ActiveNote {
					t.Errorf("over two connections: %d entries, last seq %d, %d fact rows, active %v (%s)\nover one: %d entries, last seq %d, %d fact rows, active %v",
						len(got.Entries), got.LastSeq, got.FactRows, got.Active, got.ActiveNote, len(want.Entries), want.LastSeq, want.FactRows, want.Active)
				}
				if !slices.Equal(got.Tree.IDs(got.Tree.ActivePath), want.Tree.IDs(want.Tree.ActivePath)) {
					t.Errorf("active path %v, want %v", got.Tree.IDs(got.Tree.ActivePath), want.Tree.IDs(want.Tree.ActivePath))
				}
			}
			t.Run("quiet", func(t *testing.T) {
				defer agentdb.ReadOverTwoConnections(func() {})()
				got, err := open(t, path).Transcript(ctx, sidMain)
				if err != nil {
					t.Fatal(err)
				}
				same(t, got)
			})
			t.Run("gateway writes in between", func(t *testing.T) {
				w := writer(t, path)
				defer agentdb.ReadOverTwoConnections(func() {
					_, err := w.ExecContext(ctx, `DELETE FROM session_transcript_active_events WHERE session_id = ? AND active_position >= 8`, sidMain)
					if err == nil {
						_, err = w.ExecContext(ctx, `INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?, 1000, ?, 0, 46)`,
							sidMain, `{"type":"custom","id":"x","parentId":"a0000001"}`)
					}
					if err != nil {
						t.Errorf("the gateway's write: %v", err)
					}
				})()
				got, err := open(t, path).Transcript(ctx, sidMain)
				if err != nil {
					t.Fatal(err)
				}
				same(t, got)
			})
		})
	}
}

// TestStatsOverTwoConnections: the bulk aggregate split over two read
// transactions gives each session's figures as of one snapshot, also when
// the gateway appends to every session and rewrites one between the two.
func TestStatsOverTwoConnections(t *testing.T) {
	for _, raw := range []bool{false, true} {
		t.Run(fmt.Sprintf("from the file %v", raw), func(t *testing.T) {
			defer agentdb.ReadRaw(raw, 0)()
			path := store(t)
			db := open(t, path)
			counted := func() map[string]agentdb.Stats {
				t.Helper()
				out := map[string]agentdb.Stats{}
				for _, id := range []string{sidMain, sidOld, sidCron} {
					s, err := db.SessionStats(ctx, id, -1)
					if err != nil {
						t.Fatal(err)
					}
					out[id] = s
				}
				return out
			}
			check := func(t *testing.T, got map[string]agentdb.Stats, before, after map[string]agentdb.Stats) {
				t.Helper()
				for id, s := range got {
					if s != before[id] && s != after[id] {
						t.Errorf("%s: %+v, neither %+v (before) nor %+v (after)", id, s, before[id], after[id])
					}
				}
				if len(got) != len(before) {
					t.Errorf("%d sessions, want %d", len(got), len(before))
				}
			}
			t.Run("quiet", func(t *testing.T) {
				defer agentdb.ReadOverTwoConnections(func() {})()
				want := counted()
				got, err := db.Stats(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				check(t, got, want, want)
			})
			t.Run("gateway writes in between", func(t *testing.T) {
				before := counted()
				w := writer(t, path)
				defer agentdb.ReadOverTwoConnections(func() {
					// Every session gets an event; the main one is rewritten (its
					// first events go, its generation moves).
					for _, sid := range []string{sidMain, sidOld, sidCron} {
						if _, err := w.ExecContext(ctx, `INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes)
		SELECT ?1, max(seq) + 1, '{"type":"custom","id":"x"}', 0, 26 FROM transcript_events WHERE session_id = ?1`, sid); err != nil {
							t.Errorf("the gateway's append: %v", err)
						}
					}
					for _, q := range []string{
						`DELETE FROM transcript_events WHERE session_id = ? AND seq < 3`,
						`INSERT OR REPLACE INTO transcript_rewrite_watermarks (session_id, generation, updated_at) VALUES (?, 'g2', 0)`,
					} {
						if _, err := w.ExecContext(ctx, q, sidMain); err != nil {
							t.Errorf("the gateway's rewrite: %v", err)
						}
					}
				})()
				got, err := db.Stats(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				check(t, got, before, counted())
			})
		})
	}
}

// TestGatewayWritesBeforeTheFileIsOpened: the file, opened after the read
// transaction's first read, may show a later snapshot. A transcript the
// gateway wrote to in between is read through SQL (as the transaction
// saw it); status figures are each session's as of one snapshot.
func TestGatewayWritesBeforeTheFileIsOpened(t *testing.T) {
	defer agentdb.ReadRaw(true, 0)()
	path := store(t)
	want, err := open(t, path).Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	db := open(t, path)
	before := map[string]agentdb.Stats{}
	for _, id := range []string{sidMain, sidOld, sidCron} {
		if before[id], err = db.SessionStats(ctx, id, -1); err != nil {
			t.Fatal(err)
		}
	}
	w := writer(t, path)
	wrote := false
	restore := agentdb.WriteBeforeRawOpen(func() {
		if wrote {
			return
		}
		wrote = true
		// OpenClaw moves the window's times with each write; this gateway
		// appends to every session and cuts the main one's branch short.
		for _, q := range []string{
			`INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes)
SELECT session_id, max(seq) + 1, '{"type":"custom","id":"x"}', 0, 26 FROM transcript_events GROUP BY session_id`,
			`UPDATE session_windows SET transcript_updated_at = coalesce(transcript_updated_at, 0) + 1, updated_at = updated_at + 1`,
			`DELETE FROM session_transcript_active_events WHERE session_id = '` + sidMain + `' AND active_position >= 8`,
		} {
			if _, err := w.ExecContext(ctx, q); err != nil {
				t.Fatalf("the gateway's write: %v", err)
			}
		}
	})
	got, err := db.Transcript(ctx, sidMain)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if !wrote {
		t.Fatal("the transcript was not read from the file")
	}
	if !slices.Equal(got.Entries, want.Entries) || !slices.Equal(got.Active, want.Active) || got.LastSeq != want.LastSeq || got.ActiveDiffers {
		t.Errorf("%d entries, last seq %d, active %v (%s); the transaction's snapshot has %d, %d, %v",
			len(got.Entries), got.LastSeq, got.Active, got.ActiveNote, len(want.Entries), want.LastSeq, want.Active)
	}

	wrote = false
	defer agentdb.WriteBeforeRawOpen(func() {
		if !wrote {
			wrote = true
			if _, err := w.ExecContext(ctx, `INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes)
SELECT session_id, max(seq) + 1, '{"type":"custom","id":"x"}', 0, 26 FROM transcript_events GROUP BY session_id`); err != nil {
				t.Errorf("the gateway's append: %v", err)
			}
			if _, err := w.ExecContext(ctx, `DELETE FROM transcript_events WHERE session_id = ? AND seq < 3`, sidMain); err != nil {
				t.Errorf("the gateway's rewrite: %v", err)
			}
		}
	})()
	stats, err := db.Stats(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !wrote {
		t.Fatal("the stats were not read from the file")
	}
	for id, s := range stats {
		after, err := db.SessionStats(ctx, id, -1)
		if err != nil {
			t.Fatal(err)
		}
		if s != before[id] && s != after {
			t.Errorf("%s: %+v, neither %+v (before) nor %+v (after)", id, s, before[id], after)
		}
	}
}
