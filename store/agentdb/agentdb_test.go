package agentdb_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
)

var ctx = context.Background()

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// ev writes one transcript event as pi and OpenClaw write them.
func ev(typ, id, parent string, minute int, rest string) []byte {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	s := fmt.Sprintf(`{"type":%q,"id":%q,"parentId":%s,"timestamp":"2026-11-20T08:%02d:00.000Z"`, typ, id, p, minute)
	if rest != "" {
		s += "," + rest
	}
	return []byte(s + "}")
}

func msg(id, parent, role, text string, minute int) []byte {
	return ev("message", id, parent, minute, fmt.Sprintf(`"message":{"role":%q,"content":[{"type":"text","text":%q}],"timestamp":1}`, role, text))
}

func header(id string) []byte {
	return []byte(fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w"}`, id))
}

// long is a message big enough (and compressible enough) that the store
// keeps it as a zstd frame.
func long(id, parent string, minute int) []byte {
	return msg(id, parent, "assistant", strings.Repeat("The nightly backup of northwind_billing finished. ", 60), minute)
}

const (
	sidMain  = "11111111-1111-4111-8111-111111111111"
	sidOld   = "22222222-2222-4222-8222-222222222222"
	sidCron  = "33333333-3333-4333-8333-333333333333"
	keyMain  = "agent:ops:main"
	keyCron  = "agent:ops:cron:backup"
	mainLeaf = "a0000009"
)

// store gives the test a copy of a small agent store of its own: the main
// key with two generations (the current one with a reset boundary in
// place, a leaf control and a side append, compressed events), a cron key,
// an archive (with its .zst file beside the store), a memory index. The
// store is written once per test binary (writeStore) and its folder
// copied: writing it through SQL, with its syncs, took most of this
// package's test time.
func store(t testing.TB) string {
	t.Helper()
	storeOnce.Do(func() {
		if storeTemplate, storeErr = os.MkdirTemp("", "agentdb-test-"); storeErr == nil {
			storeErr = writeStore(filepath.Join(storeTemplate, storeRel))
		}
	})
	if storeErr != nil {
		t.Fatal(storeErr)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(storeTemplate)); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, storeRel)
}

// storeRel is where store puts the store in its folder.
var storeRel = filepath.Join("agents", "ops", "agent", agentdb.FileName)

var (
	storeOnce     sync.Once
	storeTemplate string // the folder store copies
	storeErr      error
)

// TestMain removes the store written once for the tests (store).
func TestMain(m *testing.M) {
	code := m.Run()
	if storeTemplate != "" {
		os.RemoveAll(storeTemplate)
	}
	os.Exit(code)
}

// writeStore writes the store that store copies, at path. Its -wal file is
// checkpointed into it when WriteAgentStore closes it.
func writeStore(path string) error {
	mainLines := [][]byte{
		header(sidMain),
		msg("a0000001", "", "user", "Check the backups.", 1),
		long("a0000002", "a0000001", 2),
		msg("a0000003", "a0000002", "user", "And the certificates?", 3),
		msg("a0000004", "a0000003", "assistant", "They expire in 40 days.", 4),
		ev("custom", "c0000001", "a0000004", 5, `"customType":"openclaw.cache-ttl","data":{}`),
		ev("reset", "r0000001", "c0000001", 6, `"reason":"new","firstKeptEntryId":"a0000003"`),
		msg("a0000005", "r0000001", "user", "Fresh start: what is on today?", 7),
		msg("a0000006", "a0000005", "assistant", "A restore test.", 8),
		msg("a0000007", "a0000006", "user", "Try it the other way.", 9),
		ev("leaf", "f0000001", "a0000007", 10, `"targetId":"a0000006"`),
		[]byte(`{"type":"custom","id":"c0000002","customType":"conversation.turn-reply","appendMode":"side","timestamp":"2026-11-20T08:11:00.000Z","data":{"turn":1}}`),
		msg("a0000008", "a0000006", "user", "Restore to staging then.", 12),
		msg(mainLeaf, "a0000008", "assistant", "Restoring to staging.", 13),
	}
	oldLines := [][]byte{header(sidOld), msg("b0000001", "", "user", "Old generation.", 1), long("b0000002", "b0000001", 2)}
	cronLines := [][]byte{header(sidCron), msg("d0000001", "", "user", "[cron:backup] Verify the backup.", 1), msg("d0000002", "d0000001", "assistant", "Verified: 2.1 GB.", 2)}
	err := demo.WriteAgentStore(path, demo.AgentStore{
		AgentID: "ops", AppVersion: "2026.9.6", Now: now,
		Sessions: []demo.StoreSession{
			{Key: keyMain, SessionID: sidOld, Reason: "initial", Lines: oldLines},
			{Key: keyMain, SessionID: sidMain, Previous: sidOld, Reason: "rollover", Lines: mainLines, UpdatedAt: now,
				Entry:   []byte(`{"sessionId":"` + sidMain + `","updatedAt":1795262400000,"chatType":"direct","compactionCount":2,"memoryFlushCompactionCount":1}`),
				Channel: "telegram", ChatType: "direct", Provider: "anthropic", Model: "claude-sonnet-4-6"},
			{Key: keyCron, SessionID: sidCron, Reason: "initial", Lines: cronLines, UpdatedAt: now.Add(-time.Hour),
				Entry: []byte(`{"sessionId":"` + sidCron + `","updatedAt":1795258800000}`), Status: "done", CreatedVia: "cron"},
		},
		Archives: []demo.StoreArchive{{SessionID: "44444444-4444-4444-8444-444444444444", Key: keyMain, Reason: "deleted", At: now.Add(-48 * time.Hour),
			Lines: [][]byte{header("44444444-4444-4444-8444-444444444444"), msg("e0000001", "", "user", "Deleted long ago.", 1)}, Zstd: true}},
		Memory: []demo.StoreMemorySource{{Path: "MEMORY.md", Content: []byte("# Memory\n"), MTime: now}},
	})
	if err != nil {
		return err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return fmt.Errorf("writing the test store left %s-wal: a copy would hold a log SQLite did not write for it", path)
	}
	return nil
}

// oneSessionStore writes a store at path holding one session, sid, of
// lines, as agent ops' main key.
func oneSessionStore(t testing.TB, path, sid string, lines [][]byte) {
	t.Helper()
	err := demo.WriteAgentStore(path, demo.AgentStore{AgentID: "ops", AppVersion: "2026.9.6", Now: now,
		Sessions: []demo.StoreSession{{Key: keyMain, SessionID: sid, Reason: "initial", Lines: lines, UpdatedAt: now,
			Entry: []byte(`{"sessionId":"` + sid + `","updatedAt":1795262400000}`)}}})
	if err != nil {
		t.Fatal(err)
	}
}

// countOf runs query, a count, on the store at path through a plain
// connection.
func countOf(t testing.TB, path, query string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func open(t testing.TB, path string) *agentdb.DB {
	t.Helper()
	db, err := agentdb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestSessionsAndStats(t *testing.T) {
	db := open(t, store(t))
	if db.Meta.SchemaVersion != 23 || db.Meta.Role != "agent" || db.Meta.AgentID != "ops" || db.Meta.Unknown {
		t.Errorf("meta %+v", db.Meta)
	}
	nodes, windows, err := db.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 || nodes[0].Key != keyCron || nodes[1].CurrentSessionID != sidMain || nodes[0].Status != "done" || nodes[0].CreatedVia != "cron" {
		t.Errorf("nodes %+v", nodes)
	}
	if !bytes.Contains(nodes[1].EntryJSON, []byte(`"compactionCount":2`)) {
		t.Errorf("entry_json %s", nodes[1].EntryJSON)
	}
	var reasons []string
	for _, w := range windows {
		reasons = append(reasons, w.Key+"/"+w.Reason)
	}
	if want := []string{keyCron + "/initial", keyMain + "/initial", keyMain + "/rollover"}; !slices.Equal(reasons, want) {
		t.Errorf("windows %v, want %v", reasons, want)
	}
	if windows[2].PreviousSessionID != sidOld || windows[2].Channel != "telegram" || !windows[1].EndedAt.After(time.Time{}) {
		t.Errorf("window %+v", windows[2])
	}

	stats, err := db.Stats(ctx, map[string]int64{sidMain: 7})
	if err != nil {
		t.Fatal(err)
	}
	m := stats[sidMain]
	// The sizes are those of the JSONL file the events would make.
	if m.Events != 14 || m.LastSeq != 13 || m.PendingEvents != 6 {
		t.Errorf("main stats %+v", m)
	}
	if stats[sidCron].PendingEvents != 3 || stats[sidCron].Bytes <= 0 {
		t.Errorf("cron stats %+v", stats[sidCron])
	}
	one, err := db.SessionStats(ctx, sidMain, 7)
	if err != nil || one != m {
		t.Errorf("SessionStats %+v, %v; Stats %+v", one, err, m)
	}
}

// TestCompressedRowsAreRead: events stored as zstd frames count with their
// decoded size and decode by seq; selecting event_json alone would miss them.
func TestCompressedRowsAreRead(t *testing.T) {
	path := store(t)
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var compressed, jsonOnly int
	raw.QueryRow(`SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL`).Scan(&compressed)
	raw.QueryRow(`SELECT count(*) FROM transcript_events WHERE event_json IS NOT NULL`).Scan(&jsonOnly)
	if compressed < 2 {
		t.Fatalf("%d compressed events: the test needs some", compressed)
	}
	db := open(t, path)
	text, err := db.Event(ctx, sidMain, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(text, long("a0000002", "a0000001", 2)) {
		t.Errorf("event 2 decodes to %.80s…", text)
	}
	body, err := db.Body(ctx, sidMain, 2)
	if err != nil || body.Role != "assistant" || !strings.HasPrefix(body.Text(), "The nightly backup") {
		t.Errorf("body %+v, %v", body, err)
	}
	jsonl, err := db.JSONL(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := db.SessionStats(ctx, sidMain, -1)
	if int64(len(jsonl)) != st.Bytes || bytes.Count(jsonl, []byte("\n")) != 14 {
		t.Errorf("JSONL of %d bytes and %d lines, stats %+v", len(jsonl), bytes.Count(jsonl, []byte("\n")), st)
	}
	if _, err := db.Event(ctx, sidMain, 99); err == nil || !strings.Contains(err.Error(), "no event seq 99") {
		t.Errorf("a missing seq: %v", err)
	}
}

func TestTranscriptTree(t *testing.T) {
	db := open(t, store(t))
	tr, err := db.Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	tree := tr.Tree
	if tree.Rules != model.RulesOpenClaw || tree.LeafID() != mainLeaf {
		t.Errorf("rules %v, leaf %q", tree.Rules, tree.LeafID())
	}
	want := []string{"a0000001", "a0000002", "a0000003", "a0000004", "c0000001", "r0000001", "a0000005", "a0000006", "a0000008", mainLeaf}
	if got := tree.IDs(tree.ActivePath); !slices.Equal(got, want) {
		t.Errorf("active path %v\nwant        %v", got, want)
	}
	// The reset keeps a0000003 and a0000004 (user, assistant) from before it.
	if got := tree.IDs(tree.Context); !slices.Equal(got, []string{"a0000003", "a0000004", "a0000005", "a0000006", "a0000008", mainLeaf}) {
		t.Errorf("context %v", got)
	}
	if !tr.HeaderOK || tr.Header.ID != sidMain || tr.Version != 3 {
		t.Errorf("header %+v", tr.Header)
	}
	if tr.ActiveDiffers || !tr.ActiveKnown {
		t.Errorf("OpenClaw's active branch: known %v, differs %v: %s", tr.ActiveKnown, tr.ActiveDiffers, tr.ActiveNote)
	}
	// Only the entries whose facts identities lack were read: the header,
	// the root, the custom entries, the reset and the leaf control.
	if tr.FactRows != 6 {
		t.Errorf("%d events read to build the tree, want 6", tr.FactRows)
	}
	for i, e := range tr.Entries {
		if e.Offset != int64(i) || e.Line != int32(i) {
			t.Fatalf("entry %d at seq %d", i, e.Offset)
		}
	}
	if e := tr.Entries[2]; e.TimeMs != time.Date(2026, 11, 20, 8, 2, 0, 0, time.UTC).UnixMilli() {
		t.Errorf("the time of entry 2 is %d", e.TimeMs)
	}
}

// TestActiveBranchDiffers: when OpenClaw's persisted branch is not ours,
// the transcript says so.
func TestActiveBranchDiffers(t *testing.T) {
	path := store(t)
	rw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(`DELETE FROM session_transcript_active_events WHERE session_id = ? AND active_position >= 8`, sidMain); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	tr, err := open(t, path).Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.ActiveDiffers || !strings.Contains(tr.ActiveNote, "after 8 shared events") {
		t.Errorf("differs %v: %s", tr.ActiveDiffers, tr.ActiveNote)
	}
}

func TestArchives(t *testing.T) {
	path := store(t)
	db := open(t, path)
	list, err := db.Archives(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Kind != agentdb.ArchiveReclaimed || list[0].Encoding != "zstd" || list[0].Reason != "deleted" {
		t.Fatalf("archives %+v", list)
	}
	data, err := db.ArchiveJSONL(ctx, list[0])
	if err != nil || !bytes.Contains(data, []byte("Deleted long ago.")) {
		t.Errorf("archive: %v, %q", err, data)
	}
	file := filepath.Join(filepath.Dir(filepath.Dir(path)), "sessions", list[0].Name)
	stored, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the derived archive file: %v", err)
	}
	if plain, err := agentdb.DecompressJSONL(stored); err != nil || !bytes.Equal(plain, data) {
		t.Errorf("the derived file decodes to %q (%v)", plain, err)
	}
}

func TestMemoryIndex(t *testing.T) {
	mi, err := open(t, store(t)).MemoryIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !mi.Present || len(mi.Sources) != 1 || mi.Sources[0].Path != "MEMORY.md" || mi.Sources[0].Size != 9 ||
		mi.Chunks["memory"] != 1 || mi.Models["text-embedding-3-small"] != 1 || mi.Meta["provider"] != "openai" || mi.Meta["dims"] != "64" {
		t.Errorf("memory index %+v", mi)
	}
	sum := sha256.Sum256([]byte("# Memory\n"))
	if mi.Sources[0].Hash != fmt.Sprintf("%x", sum) {
		t.Errorf("hash %s", mi.Sources[0].Hash)
	}
}

// TestOpenBadInput: each kind of file that is not a readable agent store
// is one sentence naming it.
func TestOpenBadInput(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "not.sqlite")
	os.WriteFile(notDB, []byte("this is a text file, not SQLite, and long enough to have a header of one hundred bytes..........."), 0o644)
	other := filepath.Join(dir, "other.sqlite")
	db, _ := sql.Open("sqlite", "file:"+other)
	db.Exec(`CREATE TABLE schema_meta (meta_key TEXT, role TEXT, schema_version INTEGER, agent_id TEXT, app_version TEXT); INSERT INTO schema_meta VALUES ('primary','state',17,NULL,'2026.9.6')`)
	db.Close()
	old := filepath.Join(dir, "old.sqlite")
	db, _ = sql.Open("sqlite", "file:"+old)
	db.Exec(`CREATE TABLE schema_meta (meta_key TEXT, role TEXT, schema_version INTEGER, agent_id TEXT, app_version TEXT); INSERT INTO schema_meta VALUES ('primary','agent',9,'ops','2026.7.2');
CREATE TABLE sessions (session_key TEXT, entry_json TEXT); CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT)`)
	db.Close()
	// Every table there, but the events without a time (as a hand-made
	// store may be): one sentence, not SQL's "no such column".
	timeless := filepath.Join(dir, "timeless.sqlite")
	db, _ = sql.Open("sqlite", "file:"+timeless)
	db.Exec(`CREATE TABLE session_nodes (session_key TEXT, current_session_id TEXT, entry_json TEXT); CREATE TABLE session_windows (session_id TEXT, session_key TEXT);
CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT)`)
	db.Close()
	for path, want := range map[string]string{
		timeless:                             "no schema_meta row, a layout this build does not understand (it lacks transcript_events.created_at)",
		filepath.Join(dir, "missing.sqlite"): "does not exist",
		dir:                                  "is not a file",
		notDB:                                "is not a SQLite database",
		other:                                `agent schema 17 (role "state"), a layout this build does not understand`,
		old:                                  "agent schema 9 (role \"agent\"), a layout this build does not understand (it lacks session_nodes.session_key",
	} {
		_, err := agentdb.Open(ctx, path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", filepath.Base(path), err, want)
		}
	}
}

// TestDecodeEventBadRows: damaged rows are errors naming the seq, never a
// panic or a silent skip.
func TestDecodeEventBadRows(t *testing.T) {
	valid := sql.NullInt64{Int64: 10, Valid: true}
	for name, c := range map[string]struct {
		json    []byte
		jsonSet bool
		zstd    []byte
		size    sql.NullInt64
		want    string
	}{
		"both":          {[]byte("{}"), true, []byte{1}, valid, "has both"},
		"neither":       {nil, false, nil, valid, "has neither"},
		"no size":       {nil, false, []byte{1}, sql.NullInt64{}, "is not a size"},
		"huge size":     {nil, false, []byte{1}, sql.NullInt64{Int64: 1 << 30, Valid: true}, "is not a size"},
		"not zstd":      {nil, false, []byte("plain text"), valid, "does not decode"},
		"wrong size":    {nil, false, zstdOf(t, []byte(`{"a":1}`)), valid, "decodes to 7 bytes, but event_utf8_bytes says 10"},
		"not utf-8":     {nil, false, zstdOf(t, []byte("\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6")), valid, "not UTF-8"},
		"truncated zst": {nil, false, zstdOf(t, []byte(`{"a":"0123456"}`))[:8], valid, "does not decode"},
	} {
		_, err := agentdb.DecodeEvent(7, c.json, c.jsonSet, c.zstd, c.size)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "seq 7") {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// TestEventsOverTheCap: an event longer than the cap comes measured but
// not read, compressed or not, and the events around it come whole, as
// transcript.ForEachLine hands out a JSONL line over the cap.
func TestEventsOverTheCap(t *testing.T) {
	db := open(t, store(t))
	capBytes := int64(len(long("a0000002", "a0000001", 2)) - 1) // event 2 (compressed) is just over
	var got []agentdb.Event
	if err := db.Events(ctx, sidMain, 0, capBytes, func(ev agentdb.Event) bool {
		got = append(got, ev)
		return ev.Seq < 3
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Seq != 1 || got[1].Seq != 2 || got[2].Seq != 3 {
		t.Fatalf("events %+v, want seqs 1, 2, 3", got)
	}
	if got[0].TooLong || !bytes.Equal(got[0].Text, msg("a0000001", "", "user", "Check the backups.", 1)) {
		t.Errorf("seq 1: %+v", got[0])
	}
	if !got[1].TooLong || got[1].Text != nil || got[1].Bytes != capBytes+1 {
		t.Errorf("seq 2 over the cap: TooLong %v, %d bytes of text, size %d; want TooLong, no text, size %d", got[1].TooLong, len(got[1].Text), got[1].Bytes, capBytes+1)
	}
	if got[2].TooLong || len(got[2].Text) == 0 {
		t.Errorf("seq 3: %+v", got[2])
	}
	// An uncompressed event over the cap is left unread too.
	var sizes []int64
	if err := db.Events(ctx, sidMain, -1, 40, func(ev agentdb.Event) bool {
		if !ev.TooLong {
			t.Errorf("seq %d (%d bytes) came whole under a 40-byte cap", ev.Seq, ev.Bytes)
		}
		sizes = append(sizes, ev.Bytes)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 14 {
		t.Errorf("%d events under a 40-byte cap, want all 14 measured", len(sizes))
	}
}

// TestColdArchiveConfined: a cold archive is read only from the store's
// cold folder: a name that climbs out of it, or a link in it that leads
// elsewhere, is refused with a sentence, and nothing outside is read.
func TestColdArchiveConfined(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agents", "ops", "agent", agentdb.FileName)
	lines := [][]byte{header(sidOld), msg("b0000001", "", "user", "Cold words.", 1)}
	if err := demo.WriteAgentStore(path, demo.AgentStore{AgentID: "ops", AppVersion: "2026.9.6", Now: now,
		Sessions: []demo.StoreSession{{Key: keyMain, SessionID: sidOld, Reason: "initial", Lines: lines, Cold: true, UpdatedAt: now},
			{Key: keyMain, SessionID: sidMain, Previous: sidOld, Reason: "reset", Lines: [][]byte{header(sidMain)}, UpdatedAt: now, Entry: []byte(`{"sessionId":"` + sidMain + `"}`)}}}); err != nil {
		t.Fatal(err)
	}
	cold := func() agentdb.Archive {
		list, err := open(t, path).Archives(ctx)
		if err != nil || len(list) != 1 || list[0].Kind != agentdb.ArchiveCold {
			t.Fatalf("archives %+v, %v", list, err)
		}
		return list[0]
	}
	a := cold()
	if data, err := open(t, path).ArchiveJSONL(ctx, a); err != nil || !bytes.Contains(data, []byte("Cold words.")) {
		t.Fatalf("the cold archive reads as %q, %v", data, err)
	}
	// A link in the cold folder that leads out of it.
	outside := filepath.Join(t.TempDir(), "elsewhere.jsonl.zst")
	if err := os.Rename(a.File, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, a.File); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, path).ArchiveJSONL(ctx, cold()); err == nil || !strings.Contains(err.Error(), "outside the cold archive folder") {
		t.Errorf("a link leading out of the cold folder: %v", err)
	}
	// A name that climbs out of the folder.
	w, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// OpenClaw's schema forbids it; a damaged or hand-made store may not.
	w.SetMaxOpenConns(1)
	if _, err := w.Exec(`PRAGMA ignore_check_constraints = ON`); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`UPDATE session_transcript_cold_archives SET archive_name = ?`, "../../../../elsewhere.jsonl.zst"); err != nil {
		t.Fatal(err)
	}
	a = cold()
	if a.File != "" {
		t.Errorf("archive_name %q is followed to %s", a.Name, a.File)
	}
	if _, err := open(t, path).ArchiveJSONL(ctx, a); err == nil || !strings.Contains(err.Error(), "not a file name in the cold archive folder") {
		t.Errorf("a name climbing out: %v", err)
	}
}

// renameIdentity gives the entry id of the main session's identities the
// id to, where it is the entry's id and where it is a parent id (the
// bodies keep the old one).
func renameIdentity(t *testing.T, path, id, to string) {
	t.Helper()
	rw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	for _, column := range []string{"event_id", "parent_id"} {
		if _, err := rw.Exec(`UPDATE transcript_event_identities SET `+column+` = ?3 WHERE session_id = ?1 AND `+column+` = ?2`, sidMain, id, to); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOddIdentities: ids with the separators of the identities' text (a
// space, a newline, a trailing "!"), an empty parent id and a NULL type
// read as the rows hold them.
func TestOddIdentities(t *testing.T) {
	path := store(t)
	odd := "odd id\n7 0 message x y!"
	renameIdentity(t, path, "a0000005", odd)
	renameIdentity(t, path, "a0000002", "c-1!")
	tr, err := open(t, path).Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a0000001", "c-1!", "a0000003", "a0000004", "c0000001", "r0000001", odd, "a0000006", "a0000008", mainLeaf}
	if got := tr.Tree.IDs(tr.Tree.ActivePath); !slices.Equal(got, want) {
		t.Errorf("active path %q\nwant        %q", got, want)
	}
	if tr.ActiveDiffers {
		t.Error(tr.ActiveNote)
	}
}

// TestIdentitiesTooLongForOneValue: a chunk of identities whose text would
// be longer than SQLite allows one value is read row by row, to the same
// tree.
func TestIdentitiesTooLongForOneValue(t *testing.T) {
	path := store(t)
	renameIdentity(t, path, "a0000004", strings.Repeat("x", 600))
	want, err := open(t, path).Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	db := open(t, path)
	// Room for any one event and id, not for the two ids of a0000004 in
	// the identities' text.
	if err := db.LimitValueLength(1100); err != nil {
		t.Fatal(err)
	}
	got, err := db.Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Entries, want.Entries) || got.FactRows != want.FactRows || got.Tree.Leaf != want.Tree.Leaf {
		t.Errorf("read row by row: %d entries, %d fact rows, leaf %d; as text: %d, %d, %d",
			len(got.Entries), got.FactRows, got.Tree.Leaf, len(want.Entries), want.FactRows, want.Tree.Leaf)
	}
}

// TestActiveBranchInPositionOrder: OpenClaw's branch is read in the order
// of active_position, whatever order the rows were written in.
func TestActiveBranchInPositionOrder(t *testing.T) {
	path := store(t)
	rw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][3]any
	r, err := rw.Query(`SELECT active_position, event_seq, context_eligible FROM session_transcript_active_events WHERE session_id = ? ORDER BY active_position DESC`, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var row [3]any
		if err := r.Scan(&row[0], &row[1], &row[2]); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	r.Close()
	if _, err := rw.Exec(`DELETE FROM session_transcript_active_events WHERE session_id = ?`, sidMain); err != nil {
		t.Fatal(err)
	}
	for _, row := range rows { // last position first
		if _, err := rw.Exec(`INSERT INTO session_transcript_active_events (session_id, active_position, event_seq, context_eligible) VALUES (?, ?, ?, ?)`,
			sidMain, row[0], row[1], row[2]); err != nil {
			t.Fatal(err)
		}
	}
	rw.Close()
	tr, err := open(t, path).Transcript(ctx, sidMain)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Active) != len(rows) || !slices.IsSorted(tr.Active) || tr.ActiveDiffers {
		t.Errorf("OpenClaw's branch read as %v (%s)", tr.Active, tr.ActiveNote)
	}
}
