package observer

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
)

// sqliteSID is the SQLite-era session the fixture writes.
const sqliteSID = "5e5e5e5e-1111-4111-8111-111111111111"

// opsLines are a SQLite-era transcript: a header, then n user and
// assistant messages, every third one long enough (over 1 KiB, and
// repetitive) for the store to keep it as a zstd frame.
func opsLines(n int) [][]byte {
	out := [][]byte{[]byte(`{"type":"session","version":3,"id":"` + sqliteSID + `","timestamp":"2026-11-21T08:00:00.000Z","cwd":"/w"}`)}
	parent := "null"
	for i := 1; i <= n; i++ {
		role, text := "user", fmt.Sprintf("We decided to move the backup window to 02:%02d UTC for the billing database.", i%60)
		if i%2 == 0 {
			role, text = "assistant", fmt.Sprintf("Noted: the backup of northwind_billing now starts at 02:%02d UTC.", i%60)
		}
		if i%3 == 0 {
			text += " " + strings.Repeat("The restore test runs every Thursday against staging. ", 30)
		}
		id := fmt.Sprintf("e%07d", i)
		line := fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-11-21T09:%02d:00.000Z","message":{"role":%q,"content":[{"type":"text","text":%q}]}}`,
			id, parent, i%60, role, text)
		out = append(out, []byte(line))
		parent = `"` + id + `"`
	}
	return out
}

// storePath is the fixture's agent store.
func (f *fixture) storePath() string {
	return filepath.Join(f.state, "agents", "ops", "agent", agentdb.FileName)
}

// sqliteAgent writes agent ops's SQLite-era store with one session of
// these lines (the store is written anew, as a longer transcript).
func (f *fixture) sqliteAgent(lines [][]byte) { f.sqliteAgentStore(lines, false) }

// sqliteAgentStore is sqliteAgent, with the session's events moved to a
// cold archive when cold.
func (f *fixture) sqliteAgentStore(lines [][]byte, cold bool) {
	f.t.Helper()
	err := demo.WriteAgentStore(f.storePath(), demo.AgentStore{AgentID: "ops", AppVersion: "2026.9.6", Now: testNow,
		Sessions: []demo.StoreSession{{Key: "agent:ops:main", SessionID: sqliteSID, Reason: "initial", Lines: lines, UpdatedAt: testNow,
			Entry: []byte(`{"sessionId":"` + sqliteSID + `","updatedAt":1795262400000}`), Cold: cold}}})
	if err != nil {
		f.t.Fatal(err)
	}
}

// sqliteBytes is the JSONL-equivalent size of lines.
func sqliteBytes(lines [][]byte) int64 {
	var n int64
	for _, l := range lines {
		n += int64(len(l)) + 1
	}
	return n
}

func (f *fixture) seqCursors() model.SeqCursorState {
	f.t.Helper()
	st, err := store.ReadSeqCursors(store.OS, f.vault)
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

func rawLedgerLines(t *testing.T, vault string) []string {
	t.Helper()
	data, err := os.ReadFile(rawLedgerPath(vault, testNow))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// A SQLite-era session is swept as a file is: its events read in seq order
// (zstd rows too), observed, filed, its raw records written, and its seq
// cursor moved, in the seq cursor file only. A second sweep reads only
// the events appended since.
func TestSweepSQLiteSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lines := opsLines(40)
	f.sqliteAgent(lines)
	r := f.mustSweep(SweepOptions{Agents: []string{"ops"}})
	if len(r.Observed) != 1 || len(r.Failed) != 0 {
		t.Fatalf("observed %d, failed %v, errors %v", len(r.Observed), r.Failed, r.Errors)
	}
	s := r.Observed[0]
	want := sqliteBytes(lines)
	if s.SessionID != sqliteSID || s.Messages != 40 || s.BytesRead != want || s.Cursor != nil || s.SeqCursor == nil ||
		s.SeqCursor.LastObservedSeq != 40 || s.SeqCursor.ObservedBytes != want {
		t.Fatalf("session result %+v, seq cursor %+v; want 40 messages of %d bytes through seq 40", s, s.SeqCursor, want)
	}
	if s.Observations == 0 {
		t.Error("no observations from 40 messages about decisions")
	}
	cur, ok := f.seqCursors().Get(sqliteSID)
	if !ok || cur.LastSeq != 40 || cur.ObservedBytes != want || cur.AgentID != "ops" || cur.SessionKey != "agent:ops:main" || !cur.ObservedAt.Equal(testNow) {
		t.Fatalf("seq cursor file: %+v", cur)
	}
	if strings.Contains(f.read(".clawvault/observe-cursors.json"), sqliteSID) {
		t.Error("ClawVault's cursor file names the SQLite-era session: it would read the seq as a byte offset")
	}
	raw := rawLedgerLines(t, f.vault)
	if len(raw) != 40 || !strings.Contains(raw[0], `"source":"openclaw","sessionKey":"agent:ops:main","transcriptId":"`+sqliteSID+`"`) {
		t.Fatalf("raw ledger: %d lines, first %s", len(raw), raw[0])
	}
	// Every message, the compressed ones too, reached the ledger whole.
	long := 0
	for _, l := range raw {
		if strings.Contains(l, "The restore test runs every Thursday") {
			long++
		}
	}
	if n := long; n != 13 {
		t.Errorf("%d long (zstd-stored) messages in the raw ledger, want 13", n)
	}

	// status: the seq cursor, nothing pending.
	snap, err := store.Scan(context.Background(), store.OS, f.workspace(), store.ScanOptions{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range snap.Rows {
		if row.SessionID == sqliteSID && (row.SeqCursor == nil || row.SeqCursor.LastSeq != 40 || row.Selection.NewBytes != 0) {
			t.Errorf("status after the sweep: seq cursor %+v, pending %d", row.SeqCursor, row.Selection.NewBytes)
		}
	}
	if again := f.mustSweep(SweepOptions{Agents: []string{"ops"}}); len(again.Observed) != 0 || len(again.Candidates) != 0 {
		t.Fatalf("a second sweep observed %d session(s)", len(again.Observed))
	}

	// Five more events: only they are read.
	more := opsLines(45)
	f.sqliteAgent(more)
	r = f.mustSweep(SweepOptions{Agents: []string{"ops"}})
	if len(r.Observed) != 1 {
		t.Fatalf("after 5 more events: observed %d, errors %v", len(r.Observed), r.Errors)
	}
	s = r.Observed[0]
	if s.Messages != 5 || s.StartOffset != want || s.BytesRead != sqliteBytes(more)-want || s.SeqCursor.LastObservedSeq != 45 {
		t.Errorf("the second read: %d messages from %d, %d bytes, seq %d", s.Messages, s.StartOffset, s.BytesRead, s.SeqCursor.LastObservedSeq)
	}
	if raw := rawLedgerLines(t, f.vault); len(raw) != 45 {
		t.Errorf("raw ledger has %d lines after both sweeps, want 45", len(raw))
	}
	f.checkClean()
}

// The selection's pending bytes are the events' UTF-8 bytes and a newline
// each after the cursor, so ClawVault's thresholds keep their meaning: 49
// KiB pending is not a candidate of a small session, 50 KiB is.
func TestSelectSQLiteThreshold(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lines := opsLines(60)
	f.sqliteAgent(lines)
	snap, err := store.Scan(context.Background(), store.OS, f.workspace(), store.ScanOptions{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	total := sqliteBytes(lines)
	for _, c := range []struct {
		minNew int64
		want   bool
	}{{total, true}, {total + 1, false}, {0, total >= model.SmallThresholdBytes}} {
		cands, checked := SelectSQLite(snap, "ops", c.minNew)
		if checked != 1 || (len(cands) == 1) != c.want {
			t.Errorf("--min-new %d: %d of %d checked, want candidate %v", c.minNew, len(cands), checked, c.want)
		}
		if len(cands) == 1 && (cands[0].NewBytes != total || cands[0].Seq.AfterSeq != -1 || cands[0].Seq.Events != 61) {
			t.Errorf("candidate %+v %+v", cands[0], cands[0].Seq)
		}
	}
}

// ClawVault rewrites observe-cursors.json from memory on every sweep of
// its own: the seq cursors, in a file it never reads, stay.
func TestSeqCursorsSurviveClawVaultRewrite(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "aaaaaaaa-0000-4000-8000-000000000001", lines(msgLine("m1", "user", "We decided to ship on Friday.")))
	f.sqliteAgent(opsLines(10))
	f.mustSweep(SweepOptions{Agents: []string{"main", "ops"}})
	before := f.read(".clawvault/clawvault-tui-seq-cursors.json")
	// ClawVault's writer: its own store, serialized, in place.
	cv := model.NewCursorStore()
	cv.Set("bbbbbbbb-0000-4000-8000-000000000002", model.Cursor{LastObservedOffset: 10, LastObservedAt: "2026-11-21T12:00:00.000Z", SessionKey: "agent:main:other", LastFileSize: 10})
	f.write(store.CursorFile(f.vault), string(model.MarshalCursorStore(cv)))
	if got := f.read(".clawvault/clawvault-tui-seq-cursors.json"); got != before || !strings.Contains(got, sqliteSID) {
		t.Fatalf("the seq cursor file changed:\n%s", got)
	}
	r := f.mustSweep(SweepOptions{Agents: []string{"ops"}})
	if len(r.Observed) != 0 {
		t.Errorf("after ClawVault's rewrite the SQLite-era session was observed again: %+v", r.Observed)
	}
}

// A seq cursor file of ours that cannot be read or does not parse stops
// the sweep with one sentence, and nothing is written: starting over would
// observe every SQLite-era session again. An invalid entry fails its
// session only, and is kept as it is.
func TestSweepBadSeqCursorFile(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		setup func(f *fixture)
		want  string
	}{
		"not JSON":  {func(f *fixture) { f.write(store.SeqCursorFile(f.vault), `{"version":1,"sess`) }, "does not parse"},
		"version 9": {func(f *fixture) { f.write(store.SeqCursorFile(f.vault), `{"version":9,"sessions":{}}`) }, "version 9"},
		"a folder": {func(f *fixture) {
			if err := os.MkdirAll(filepath.Join(store.SeqCursorFile(f.vault), "x"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "cannot read the seq cursor file"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.sqliteAgent(opsLines(10))
			c.setup(f)
			before := f.files()
			_, err := f.sweep(context.Background(), SweepOptions{Agents: []string{"ops"}})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), store.SeqCursorFile(f.vault)) {
				t.Fatalf("err = %v, want one naming the file and %q", err, c.want)
			}
			if after := f.files(); !mapsEqual(before, after) {
				t.Errorf("the failed sweep wrote: %v", keys(after))
			}
		})
	}
	t.Run("an invalid entry", func(t *testing.T) {
		f := newFixture(t)
		f.sqliteAgent(opsLines(10))
		bad := `{"lastObservedSeq":-4,"observedBytes":0,"lastObservedAt":"2026-11-21T12:00:00.000Z"}`
		other := `{"agentId":"ops","sessionKey":"agent:ops:x","lastObservedSeq":3,"observedBytes":9,"lastObservedAt":"2026-11-21T12:00:00.000Z"}`
		f.write(store.SeqCursorFile(f.vault), `{"version":1,"sessions":{"`+sqliteSID+`":`+bad+`,"other-session":`+other+`}}`)
		r, err := f.sweep(context.Background(), SweepOptions{Agents: []string{"ops"}})
		if err != nil || len(r.Failed) != 1 || !strings.Contains(r.Failed[0].Error, "invalid") || len(r.Observed) != 0 {
			t.Fatalf("err %v, failed %+v, observed %d", err, r.Failed, len(r.Observed))
		}
		if got := f.read(".clawvault/clawvault-tui-seq-cursors.json"); !strings.Contains(got, `"lastObservedSeq":-4`) {
			t.Errorf("the invalid entry was not kept:\n%s", got)
		}
	})
}

// UpdateSeqCursors keeps what it does not update, invalid entries too.
func TestUpdateSeqCursorsKeepsOthers(t *testing.T) {
	t.Parallel()
	vault := t.TempDir()
	path := store.SeqCursorFile(vault)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"version":1,"sessions":{"a":{"lastObservedSeq":"x"},"b":{"agentId":"ops","sessionKey":"k","lastObservedSeq":1,"observedBytes":2,"lastObservedAt":"2026-11-21T12:00:00.000Z"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	up := store.SeqCursorUpdate{SessionID: "c", Cursor: model.SeqCursor{AgentID: "ops", SessionKey: "k2", LastSeq: 7, ObservedBytes: 70, ObservedAt: testNow}}
	if err := store.UpdateSeqCursors(store.OSWriter, store.OS, vault, []store.SeqCursorUpdate{up}); err != nil {
		t.Fatal(err)
	}
	st, err := store.ReadSeqCursors(store.OS, vault)
	if err != nil || len(st.Cursors) != 2 || st.Cursors["c"].LastSeq != 7 || st.Cursors["b"].LastSeq != 1 || st.Problems["a"] == "" {
		t.Fatalf("after the update: %+v, %v", st, err)
	}
}

// storeBytes are the store's database file and write-ahead log as they
// are on disk.
func storeBytes(t *testing.T, path string) (db, wal []byte) {
	t.Helper()
	db, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if wal, err = os.ReadFile(path + "-wal"); err != nil {
		t.Fatal(err) // the gateway's writer is open: the log exists
	}
	return db, wal
}

// gateway is a connection to the store as OpenClaw's gateway holds one:
// read-write, in WAL mode, with no busy timeout (being blocked would be an
// immediate error, not a wait).
func gateway(t *testing.T, path string) *sql.DB {
	t.Helper()
	w, err := sql.Open("sqlite", "file:"+path)
	if err == nil {
		w.SetMaxOpenConns(1) // one connection: the pragmas stay with it
		t.Cleanup(func() { w.Close() })
		_, err = w.Exec(`PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 0`)
	}
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// appendEvents appends messages to the fixture's session as the gateway
// does, in one transaction.
func appendEvents(t *testing.T, w *sql.DB, from, n int) {
	t.Helper()
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for seq := from; seq < from+n; seq++ {
		line := fmt.Sprintf(`{"type":"message","id":"w%07d","parentId":null,"timestamp":"2026-11-21T11:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"We decided to rotate the VPN key, step %d."}]}}`, seq, seq)
		if _, err := tx.Exec(`INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?, ?, ?, 0, ?)`,
			sqliteSID, seq, line, len(line)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.Exec(`UPDATE session_windows SET transcript_updated_at = transcript_updated_at + 1, updated_at = updated_at + 1 WHERE session_id = ?`, sqliteSID); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// A sweep never changes a byte of the store or its write-ahead log, with
// the gateway's writer open and committed frames in the log (the -shm
// file is where WAL readers keep their read marks).
func TestSweepChangesNoByteOfTheStore(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sqliteAgent(opsLines(20))
	path := f.storePath()
	w := gateway(t, path)
	appendEvents(t, w, 21, 3)
	db, wal := storeBytes(t, path)
	if len(wal) == 0 {
		t.Fatal("the write-ahead log should hold the gateway's commits")
	}
	r := f.mustSweep(SweepOptions{Agents: []string{"ops"}})
	if len(r.Observed) != 1 || r.Observed[0].SeqCursor == nil || r.Observed[0].SeqCursor.LastObservedSeq != 23 {
		t.Fatalf("observed %+v, errors %v", r.Observed, r.Errors)
	}
	if dbAfter, walAfter := storeBytes(t, path); !bytes.Equal(dbAfter, db) || !bytes.Equal(walAfter, wal) {
		t.Error("the sweep changed the database file or its write-ahead log")
	}
}

// --watch looks when the gateway writes to the store (its -wal), without
// waiting for the interval, and sweeps what crossed its threshold.
func TestWatchSeesStoreWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sqliteAgent(opsLines(4))
	w := gateway(t, f.storePath())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	looks := make(chan *SweepReport, 16)
	done := make(chan error, 1)
	opt := SweepOptions{Workspace: f.workspace(), Agents: []string{"ops"}, MinNewBytes: 1, Now: func() time.Time { return testNow }}
	go func() {
		done <- Watch(ctx, WatchOptions{Sweep: opt, Tick: make(chan time.Time), StoreQuiet: 10 * time.Millisecond, StoreMaxDelay: 50 * time.Millisecond,
			OnLook: func(_ int, r *SweepReport, err error) {
				if err != nil && ctx.Err() == nil { // a look the cancel below stops may fail
					t.Errorf("look: %v", err)
				}
				select {
				case looks <- r:
				case <-ctx.Done():
				}
			}})
	}()
	// The first look sweeps the four messages; then the gateway writes.
	deadline := time.After(time.Minute) // a guard against a hang, not a measurement
	wait := func(seq int64) {
		t.Helper()
		for {
			select {
			case r := <-looks:
				if r != nil && len(r.Observed) == 1 && r.Observed[0].SeqCursor != nil && r.Observed[0].SeqCursor.LastObservedSeq == seq {
					return
				}
			case <-deadline:
				t.Fatalf("no look swept the session through seq %d", seq)
			}
		}
	}
	wait(4)
	appendEvents(t, w, 5, 3)
	wait(7)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A generation observed in part and then moved to a cold archive is read
// from the archive at its seq cursor's byte (the archive's JSONL is the
// events' bytes): the rest is observed once, and then nothing.
func TestSweepSQLiteColdAfterPartialObserve(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sqliteAgent(opsLines(40))
	f.mustSweep(SweepOptions{Agents: []string{"ops"}})
	observed := sqliteBytes(opsLines(40))
	more := opsLines(45)
	f.sqliteAgentStore(more, true)
	r := f.mustSweep(SweepOptions{Agents: []string{"ops"}})
	if len(r.Observed) != 1 || len(r.Failed) != 0 {
		t.Fatalf("observed %d, failed %+v, errors %v", len(r.Observed), r.Failed, r.Errors)
	}
	s := r.Observed[0]
	if s.Messages != 5 || s.StartOffset != observed || s.BytesRead != sqliteBytes(more)-observed || s.SeqCursor == nil ||
		s.SeqCursor.LastObservedSeq != 45 || s.SeqCursor.ObservedBytes != sqliteBytes(more) {
		t.Fatalf("the cold read: %d messages from byte %d, %d bytes, seq cursor %+v", s.Messages, s.StartOffset, s.BytesRead, s.SeqCursor)
	}
	if raw := rawLedgerLines(t, f.vault); len(raw) != 45 {
		t.Errorf("raw ledger has %d lines, want 45 (each message once)", len(raw))
	}
	if again := f.mustSweep(SweepOptions{Agents: []string{"ops"}}); len(again.Observed) != 0 {
		t.Errorf("a fully observed cold generation was observed again: %+v", again.Observed)
	}
	f.checkClean()
}

// A seq cursor that no longer fits its session is set aside, as a byte
// cursor past the end of a file is: the events through it were rewritten
// (other bytes) or cut (the session ends before it), or it lies beyond
// the end of the cold archive the events moved to. status says so, and the
// sweep reads the session again from its first event.
func TestSweepSQLiteSetsAsideACursorThatNoLongerFits(t *testing.T) {
	t.Parallel()
	rewritten := opsLines(45)
	rewritten[7] = bytes.Replace(rewritten[7], []byte("02:07 UTC"), []byte("03:07 UTC, after the index rebuild"), 1)
	for name, c := range map[string]struct {
		lines [][]byte
		cold  bool
		want  string
	}{
		"rewritten below the cursor":         {rewritten, false, "rewritten since"},
		"cut below the cursor":               {opsLines(30), false, "ends at seq 30, before its seq cursor (seq 40)"},
		"a cold archive that ends before it": {opsLines(30), true, "does not fit the cold archive"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.sqliteAgent(opsLines(40))
			f.mustSweep(SweepOptions{Agents: []string{"ops"}})
			f.sqliteAgentStore(c.lines, c.cold)
			snap, err := store.Scan(context.Background(), store.OS, f.workspace(), store.ScanOptions{Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range snap.Rows {
				if row.SessionID == sqliteSID && (!row.Has(model.CodeCursorPastEOF) || row.Selection.NewBytes != sqliteBytes(c.lines) ||
					!strings.Contains(row.Diagnosis[0].Message, c.want)) {
					t.Errorf("status: pending %d of %d, diagnoses %v", row.Selection.NewBytes, sqliteBytes(c.lines), row.Diagnosis)
				}
			}
			r := f.mustSweep(SweepOptions{Agents: []string{"ops"}, MinNewBytes: 1})
			if len(r.Observed) != 1 || len(r.Failed) != 0 {
				t.Fatalf("observed %d, failed %+v, errors %v", len(r.Observed), r.Failed, r.Errors)
			}
			s := r.Observed[0]
			last := int64(len(c.lines) - 1)
			if s.StartOffset != 0 || s.Messages != len(c.lines)-1 || s.SeqCursor == nil || s.SeqCursor.LastObservedSeq != last ||
				s.SeqCursor.ObservedBytes != sqliteBytes(c.lines) {
				t.Errorf("read %d messages from byte %d, seq cursor %+v; want all %d from 0 through seq %d", s.Messages, s.StartOffset, s.SeqCursor, len(c.lines)-1, last)
			}
			if again := f.mustSweep(SweepOptions{Agents: []string{"ops"}, MinNewBytes: 1}); len(again.Observed) != 0 {
				t.Errorf("the new cursor does not hold: observed again %+v", again.Observed)
			}
		})
	}
}

// A seq cursor whose bytes end inside a line of the cold archive fails its
// session with the reason, and moves nothing: the archive does not hold
// the events the cursor counted.
func TestSweepSQLiteColdCursorMidLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lines := opsLines(40)
	f.sqliteAgentStore(lines, true)
	if err := store.UpdateSeqCursors(store.OSWriter, store.OS, f.vault, []store.SeqCursorUpdate{{SessionID: sqliteSID,
		Cursor: model.SeqCursor{AgentID: "ops", SessionKey: "agent:ops:main", LastSeq: 20, ObservedBytes: sqliteBytes(lines[:21]) - 5, ObservedAt: testNow}}}); err != nil {
		t.Fatal(err)
	}
	before := f.read(".clawvault/clawvault-tui-seq-cursors.json")
	r, err := f.sweep(context.Background(), SweepOptions{Agents: []string{"ops"}, MinNewBytes: 1})
	if err != nil || len(r.Failed) != 1 || !strings.Contains(r.Failed[0].Error, "not the end of a line of its cold archive") || len(r.Observed) != 0 {
		t.Fatalf("err %v, failed %+v, observed %d", err, r.Failed, len(r.Observed))
	}
	if got := f.read(".clawvault/clawvault-tui-seq-cursors.json"); got != before {
		t.Errorf("the failed session's cursor moved:\n%s", got)
	}
}
