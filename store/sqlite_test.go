package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
)

var sqliteNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func event(id, parent string, minute int, text string) []byte {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return []byte(fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-11-20T08:%02d:00.000Z","message":{"role":"user","content":%q}}`, id, p, minute, text))
}

// scanAt scans the workspace of state and vault at sqliteNow, with no home
// folder to find another one in.
func scanAt(t *testing.T, state, vault string) *Snapshot {
	t.Helper()
	ws, err := Locate(env(nil, "/nohome", "/"), LocateOptions{StateDir: state, Vault: vault})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Scan(context.Background(), OS, ws, ScanOptions{Now: sqliteNow})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// sqliteFixture writes a state dir whose agent ops lives in the SQLite-era
// store: agent:ops:main with two generations (the current one of 60
// events), a cron key, and a memory index that missed an edit of MEMORY.md.
func sqliteFixture(t *testing.T) (state, vault, current, old string) {
	t.Helper()
	root := t.TempDir()
	state, vault = filepath.Join(root, "state"), filepath.Join(root, "vault")
	current, old = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
	lines := [][]byte{[]byte(`{"type":"session","version":3,"id":"` + current + `","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w"}`)}
	parent := ""
	for i := 1; i < 60; i++ {
		id := fmt.Sprintf("a%07d", i)
		lines = append(lines, event(id, parent, i%60, strings.Repeat("backup verified ", 80)))
		parent = id
	}
	workspace := filepath.Join(state, "workspace-ops")
	mkfile(t, filepath.Join(workspace, "MEMORY.md"), "# Memory\n- restore test on Thursday\n")
	mkfile(t, filepath.Join(workspace, "memory", "2026-11-20.md"), "# 2026-11-20\n")
	mkfile(t, filepath.Join(vault, ".clawvault.json"), "{}")
	err := demo.WriteAgentStore(filepath.Join(state, "agents", "ops", "agent", agentdb.FileName), demo.AgentStore{
		AgentID: "ops", Now: sqliteNow,
		Sessions: []demo.StoreSession{
			{Key: "agent:ops:main", SessionID: old, Reason: "initial", Lines: [][]byte{
				[]byte(`{"type":"session","version":3,"id":"` + old + `","timestamp":"2026-11-19T08:00:00.000Z","cwd":"/w"}`), event("b0000001", "", 1, "old")}},
			{Key: "agent:ops:main", SessionID: current, Previous: old, Reason: "reset", Lines: lines, UpdatedAt: sqliteNow,
				Entry: []byte(`{"sessionId":"` + current + `","updatedAt":1795262400000,"compactionCount":3,"memoryFlushCompactionCount":1}`)},
		},
		Memory: []demo.StoreMemorySource{
			{Path: "MEMORY.md", Content: []byte("# Memory\n"), MTime: sqliteNow.Add(-48 * time.Hour)},
			{Path: "memory/2026-11-19.md", Content: []byte("gone\n"), MTime: sqliteNow.Add(-48 * time.Hour)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return state, vault, current, old
}

func TestScanSQLiteStore(t *testing.T) {
	t.Parallel()
	state, vault, current, old := sqliteFixture(t)
	// clawvault-tui observed the current generation through seq 50: the
	// first 51 events, as JSONL lines.
	events, err := agentdbJSONL(state, current)
	if err != nil {
		t.Fatal(err)
	}
	through50 := 0
	for range 51 {
		through50 += bytes.IndexByte(events[through50:], '\n') + 1
	}
	cursors := map[string]model.SeqCursor{current: {AgentID: "ops", SessionKey: "agent:ops:main", LastSeq: 50, ObservedBytes: int64(through50), ObservedAt: sqliteNow.Add(-time.Hour)}}
	if err := SaveSeqCursors(OSWriter, vault, cursors); err != nil {
		t.Fatal(err)
	}
	ws, err := Locate(env(nil, "/nohome", "/"), LocateOptions{StateDir: state, Vault: vault})
	if err != nil {
		t.Fatal(err)
	}
	ws.Agents[0].Workspace = filepath.Join(state, "workspace-ops")
	snap, err := Scan(context.Background(), &countingFS{FS: OS}, ws, ScanOptions{Now: sqliteNow})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]model.SessionRow{}
	for _, r := range snap.Rows {
		rows[r.SessionID] = r
	}
	cur, prev := rows[current], rows[old]
	if cur.Origin != model.OriginSQLite || cur.Key != "agent:ops:main" || cur.Generation == nil || !cur.Generation.Current ||
		cur.Generation.Events != 60 || cur.Generation.PendingEvents != 9 || cur.SeqCursor == nil || cur.Entry == nil || cur.Entry.SessionID != current {
		t.Fatalf("current generation row %+v (generation %+v)", cur, cur.Generation)
	}
	data, err := agentdbJSONL(state, current)
	if err != nil {
		t.Fatal(err)
	}
	if cur.Size != int64(len(data)) {
		t.Errorf("size %d, the JSONL of its events %d bytes", cur.Size, len(data))
	}
	if cur.Pending() <= 0 || cur.Pending() >= cur.Size || !cur.Has(model.CodeSQLiteSession) || !cur.Has(model.CodeFlushSkipped) {
		t.Errorf("pending %d of %d, diagnoses %v", cur.Pending(), cur.Size, cur.Diagnosis)
	}
	if !strings.Contains(cur.Diagnosis[0].Message, "ClawVault 3.5.2 cannot observe this session") ||
		!strings.Contains(cur.Diagnosis[0].Message, "through seq 50") {
		t.Errorf("diagnosis %q", cur.Diagnosis[0].Message)
	}
	if prev.Generation == nil || prev.Generation.Current || prev.Generation.Reason != "initial" || !prev.Has(model.CodeSQLiteGeneration) || prev.Pending() != prev.Size {
		t.Errorf("previous generation row %+v", prev)
	}
	d := snap.AgentDiagnoses["ops"]
	if len(d) != 1 || d[0].Code != model.CodeMemoryIndexStale || !strings.Contains(d[0].Message, "1 changed since indexed (MEMORY.md)") ||
		!strings.Contains(d[0].Message, "1 indexed but gone (memory/2026-11-19.md)") || !strings.Contains(d[0].Message, "1 never indexed (memory/2026-11-20.md)") {
		t.Errorf("agent diagnoses %+v", d)
	}
}

func agentdbJSONL(state, sessionID string) ([]byte, error) {
	db, err := agentdb.Open(context.Background(), filepath.Join(state, "agents", "ops", "agent", agentdb.FileName))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.JSONL(context.Background(), sessionID)
}

// TestScanUnreadableSQLiteStore: a store that is not one is one row with
// one sentence, and the rest of the scan goes on.
func TestScanUnreadableSQLiteStore(t *testing.T) {
	t.Parallel()
	state, vault := workspaceFixture(t)
	snap := scanAt(t, state, vault)
	for _, r := range snap.Rows {
		if r.Agent == "ops" {
			if r.Generation != nil || len(r.Diagnosis) != 1 || !strings.Contains(r.Diagnosis[0].Message, "cannot be read") {
				t.Errorf("ops row %+v", r)
			}
			return
		}
	}
	t.Error("no row for the unreadable store")
}

func TestSeqCursorFile(t *testing.T) {
	t.Parallel()
	vault := t.TempDir()
	at := time.Date(2026, 11, 21, 12, 0, 0, 123e6, time.UTC)
	in := map[string]model.SeqCursor{
		"b-session": {AgentID: "ops", SessionKey: "agent:ops:main", LastSeq: 40, ObservedBytes: 51046, ObservedAt: at},
		"a-session": {AgentID: "ops", SessionKey: "agent:ops:cron:x", LastSeq: 0, ObservedBytes: 120, ObservedAt: at},
	}
	if err := SaveSeqCursors(OSWriter, vault, in); err != nil {
		t.Fatal(err)
	}
	st := LoadSeqCursors(OS, vault)
	if st.Corrupt != "" || st.Missing || len(st.Cursors) != 2 || st.Cursors["b-session"] != in["b-session"] || st.After("a-session") != 0 || st.After("none") != -1 {
		t.Fatalf("loaded %+v", st)
	}
	data, _ := os.ReadFile(SeqCursorFile(vault))
	if again := MarshalSeqCursors(st.Cursors); string(again) != string(data) {
		t.Errorf("not a fixed point:\n%s\n%s", data, again)
	}
	if !strings.Contains(string(data), `"lastObservedSeq": 40`) || strings.Index(string(data), "a-session") > strings.Index(string(data), "b-session") {
		t.Errorf("file:\n%s", data)
	}
	// ClawVault rewriting its own cursor file never touches this one.
	if filepath.Dir(SeqCursorFile(vault)) != filepath.Dir(CursorFile(vault)) || SeqCursorFile(vault) == CursorFile(vault) {
		t.Error("the seq cursor file must sit beside observe-cursors.json, not be it")
	}
}

func TestSeqCursorFileBadInput(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		data, corrupt, problem string
	}{
		"not JSON":        {`{"version":1,`, "not the JSON", ""},
		"another version": {`{"version":2,"sessions":{}}`, "version 2", ""},
		"negative seq":    {`{"version":1,"sessions":{"s":{"lastObservedSeq":-1,"observedBytes":0,"lastObservedAt":"2026-11-21T12:00:00.000Z"}}}`, "", "negative"},
		"no seq":          {`{"version":1,"sessions":{"s":{"observedBytes":0,"lastObservedAt":"2026-11-21T12:00:00.000Z"}}}`, "", "missing"},
		"a string seq":    {`{"version":1,"sessions":{"s":{"lastObservedSeq":"4","observedBytes":0,"lastObservedAt":"2026-11-21T12:00:00.000Z"}}}`, "", "not an object of the expected fields"},
		"bad time":        {`{"version":1,"sessions":{"s":{"lastObservedSeq":4,"observedBytes":0,"lastObservedAt":"yesterday"}}}`, "", "not a time"},
		"bad id":          {`{"version":1,"sessions":{"a/b":{"lastObservedSeq":4,"observedBytes":0,"lastObservedAt":"2026-11-21T12:00:00.000Z"}}}`, "", "not valid"},
	} {
		vault := t.TempDir()
		mkfile(t, SeqCursorFile(vault), c.data)
		st := LoadSeqCursors(OS, vault)
		if c.corrupt != "" && !strings.Contains(st.Corrupt, c.corrupt) || c.corrupt == "" && st.Corrupt != "" {
			t.Errorf("%s: corrupt %q, want %q", name, st.Corrupt, c.corrupt)
		}
		if c.problem != "" {
			var got string
			for _, p := range st.Problems {
				got = p
			}
			if len(st.Cursors) != 0 || !strings.Contains(got, c.problem) {
				t.Errorf("%s: cursors %v, problems %v, want %q", name, st.Cursors, st.Problems, c.problem)
			}
		}
	}
	if st := LoadSeqCursors(OS, t.TempDir()); !st.Missing || st.Corrupt != "" {
		t.Errorf("a vault without the file: %+v", st)
	}
	// A folder in the file's place cannot be read: its content is
	// unknown, not corrupt (as for ClawVault's cursor file).
	vault := t.TempDir()
	if err := os.MkdirAll(SeqCursorFile(vault), 0o755); err != nil {
		t.Fatal(err)
	}
	if st := LoadSeqCursors(OS, vault); st.ReadError == nil || st.Corrupt != "" || st.Missing {
		t.Errorf("a folder in the file's place: %+v", st)
	}
}

// FuzzParseSeqCursors: the parser never panics, and what it accepts writes
// back to a file that parses to the same cursors.
func FuzzParseSeqCursors(f *testing.F) {
	f.Add([]byte(`{"version":1,"sessions":{"s":{"agentId":"ops","sessionKey":"k","lastObservedSeq":4,"observedBytes":10,"lastObservedAt":"2026-11-21T12:00:00.000Z"}}}`))
	f.Add([]byte(`{"version":1,"sessions":{"s":{"lastObservedSeq":1e3,"observedBytes":0,"lastObservedAt":"2026-11-21T12:00:00Z"}}}`))
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cursors, _, err := ParseSeqCursors(data)
		if err != nil {
			return
		}
		again, _, err := ParseSeqCursors(MarshalSeqCursors(cursors))
		if err != nil || len(again) != len(cursors) {
			t.Fatalf("round trip: %v, %d of %d cursors", err, len(again), len(cursors))
		}
		for id, c := range cursors {
			want := c
			want.ObservedAt = c.ObservedAt.Truncate(time.Millisecond)
			if again[id] != want {
				t.Fatalf("%s: %+v, then %+v", id, c, again[id])
			}
		}
	})
}

// TestScanSQLiteStoreOutsideStateDir: an agent store that is a link to a
// file outside the state dir and the agent's folder is not opened: its row
// says where it leads.
func TestScanSQLiteStoreOutsideStateDir(t *testing.T) {
	t.Parallel()
	state, vault, _, _ := sqliteFixture(t)
	path := filepath.Join(state, "agents", "ops", "agent", agentdb.FileName)
	outside := filepath.Join(t.TempDir(), "elsewhere.sqlite")
	if err := os.Rename(path, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	storeProblemRow(t, scanAt(t, state, vault), "outside the state dir and the agent's folder, so it is not read")
}

// storeProblemRow checks that agent ops is one row whose one diagnosis
// says want.
func storeProblemRow(t *testing.T, snap *Snapshot, want string) {
	t.Helper()
	var ops []model.SessionRow
	for _, r := range snap.Rows {
		if r.Agent == "ops" {
			ops = append(ops, r)
		}
	}
	if len(ops) != 1 || ops[0].Generation != nil || len(ops[0].Diagnosis) != 1 || !strings.Contains(ops[0].Diagnosis[0].Message, want) {
		t.Errorf("ops rows %+v, want one saying %q", ops, want)
	}
}

// TestScanNamesRowsWithWrongTypes: a field of the wrong type in a
// sessions.json row or a session_nodes entry is skipped, the rest of the
// row read, and the row named in the scan's problems.
func TestScanNamesRowsWithWrongTypes(t *testing.T) {
	t.Parallel()
	state, vault, current, _ := sqliteFixture(t)
	path := filepath.Join(state, "agents", "ops", "agent", agentdb.FileName)
	w, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`UPDATE session_nodes SET entry_json = ? WHERE session_key = 'agent:ops:main'`,
		`{"sessionId":"`+current+`","updatedAt":1795262400000,"compactionCount":"3"}`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	mkfile(t, filepath.Join(state, "agents", "main", "sessions", "sessions.json"),
		`{"agent:main:main":{"sessionId":"33333333-3333-4333-8333-333333333333","updatedAt":1795262400000,"compactionCount":"three"}}`)
	snap := scanAt(t, state, vault)
	want := []string{
		"agent main: sessions.json: 1 row has a field of the wrong type, skipped (the rest of the row is read): agent:main:main: compactionCount is not a number",
		"agent ops: " + agentdb.FileName + ", session_nodes: 1 row has a field of the wrong type, skipped (the rest of the row is read): agent:ops:main: compactionCount is not a number",
	}
	for _, w := range want {
		if !slices.Contains(snap.Problems, w) {
			t.Errorf("problems %q\nlack %q", snap.Problems, w)
		}
	}
	// The rest of the rows is read: both sessions are listed with their files.
	seen := map[string]bool{}
	for _, r := range snap.Rows {
		seen[r.Key] = true
	}
	if !seen["agent:main:main"] || !seen["agent:ops:main"] {
		t.Errorf("rows %v", seen)
	}
}

// TestScanDamagedSQLiteTables: a store whose schema opens but one of whose
// tables is damaged is one row with one sentence naming the damage, for
// the session keys (read on their own connection) as for the generations.
func TestScanDamagedSQLiteTables(t *testing.T) {
	t.Parallel()
	for _, table := range []string{"session_nodes", "session_windows"} {
		t.Run(table, func(t *testing.T) {
			state, vault, _, _ := sqliteFixture(t)
			path := filepath.Join(state, "agents", "ops", "agent", agentdb.FileName)
			db, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			var root, pageSize int64
			err = db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, table).Scan(&root)
			if err == nil {
				err = db.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
			}
			if err == nil {
				_, err = db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
			}
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.WriteAt(bytes.Repeat([]byte{0xa5}, int(pageSize)), (root-1)*pageSize)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			storeProblemRow(t, scanAt(t, state, vault), "is damaged")
		})
	}
}
