package search

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
)

// TestSQLiteTranscripts: with transcripts on, the sessions of an agent's
// SQLite-era store are searched like transcript files: each user or
// assistant event is a message at its seq, compressed events included;
// events the gateway appends later are indexed alone.
func TestSQLiteTranscripts(t *testing.T) {
	t.Parallel()
	for name, statsCache := range map[string]bool{"sized by a pass over every event": false, "sized through status's stats cache": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testSQLiteTranscripts(t, statsCache)
		})
	}
}

func testSQLiteTranscripts(t *testing.T, statsCache bool) {
	e := newEnv(t)
	if statsCache {
		e.opt.StatsCacheDir = t.TempDir()
	}
	store := e.path("state/agents/ops/agent/" + agentdb.FileName)
	sid := "11111111-1111-4111-8111-111111111111"
	msg := func(id, parent, role, text string) []byte {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return []byte(fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-11-20T08:00:00.000Z","message":{"role":%q,"content":[{"type":"text","text":%q}]}}`, id, p, role, text))
	}
	long := "The restore rehearsal lasted forty minutes; compressedword appears once. "
	for len(long) < 3000 {
		long += "Nothing else happened overnight. "
	}
	err := demo.WriteAgentStore(store, demo.AgentStore{AgentID: "ops", Now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), Sessions: []demo.StoreSession{{
		Key: "agent:ops:main", SessionID: sid, Entry: []byte(`{"sessionId":"` + sid + `"}`), Lines: [][]byte{
			[]byte(`{"type":"session","version":3,"id":"` + sid + `","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w"}`),
			msg("a0000001", "", "user", "When is the restore drillword?"),
			msg("a0000002", "a0000001", "assistant", long),
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	e.opt.Roots = append(e.opt.Roots, Root{ID: "sqlite/ops", Kind: SQLiteRoot, Agent: "ops", Dir: filepath.Dir(store), Store: store})
	ix := e.open()
	defer ix.Close()
	for word, seq := range map[string]int64{"drillword": 1, "compressedword": 2} {
		hits := find(t, ix, word)
		if len(hits) != 1 || hits[0].SessionID != sid || hits[0].Seq != seq || hits[0].Line != int(seq)+1 || hits[0].Path != store || hits[0].Kind != Message {
			t.Errorf("%s: %+v", word, hits)
		}
	}

	// The gateway appends an event: the next update reads it alone.
	w, err := sql.Open("sqlite", "file:"+store+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	text := msg("a0000003", "a0000002", "user", "and the appendedword?")
	if _, err := w.Exec(`INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?, 3, ?, ?, ?)`,
		sid, string(text), time.Now().UnixMilli(), len(text)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`UPDATE session_windows SET transcript_updated_at = ? WHERE session_id = ?`, time.Now().UnixMilli(), sid); err != nil {
		t.Fatal(err)
	}
	w.Close()
	st, err := ix.Update(context.Background(), store+"-wal")
	if err != nil || st.Appended != 1 {
		t.Fatalf("update after an append: %+v %v", st, err)
	}
	if got := where(find(t, ix, "appendedword")); !slices.Equal(got, []string{sid + ".jsonl:4"}) {
		t.Errorf("appendedword: %v", got)
	}
	if hits := find(t, ix, "drillword"); len(hits) != 1 {
		t.Errorf("drillword after the append: %v", where(hits))
	}
	if statsCache {
		// The listing wrote the cache, and counted the append into it.
		cache := agentdb.StatsCacheFile(e.opt.StatsCacheDir, store)
		db, err := agentdb.Open(context.Background(), store)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		windows, err := db.Windows(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		stats, rep, err := db.CachedStatsOf(context.Background(), cache, windows, nil)
		if err != nil || rep != (agentdb.CacheReport{Unchanged: 1}) || stats[sid].Events != 4 {
			t.Errorf("the stats cache after the listing: %+v %+v %v, want the session unchanged with 4 events", stats, rep, err)
		}
	}
}
