package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
)

// TestStatusSQLiteStore: the demo's agent ops lives in the SQLite-era store:
// every generation of every key is a row with its size, pending bytes and
// generation; the agent's memory index is stale.
func TestStatusSQLiteStore(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, "status", "--json", "--agent", "ops", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Agents []struct {
			ID          string            `json:"id"`
			Diagnosis   []model.Diagnosis `json:"diagnosis"`
			SQLiteStore *sqliteStoreDoc   `json:"sqliteStore"`
		} `json:"agents"`
		Sessions []sessionDoc   `json:"sessions"`
		Counts   map[string]int `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	requireKeys(t, "status", json.RawMessage(out), "seqCursors")
	var gens []string
	for _, s := range doc.Sessions {
		if g := s.Generation; g != nil {
			gens = append(gens, s.SessionKey+"/"+g.Reason)
			if s.PendingBytes != s.SizeBytes || s.SizeBytes == 0 || s.Origin != "sqlite" || s.LastObservedSeq != nil {
				t.Errorf("%s: %d pending of %d, origin %s", s.SessionKey, s.PendingBytes, s.SizeBytes, s.Origin)
			}
		}
	}
	slices.Sort(gens)
	if want := []string{"agent:ops:cron:backup-verify/initial", "agent:ops:main/initial", "agent:ops:main/reset", "agent:ops:main/rollover"}; !slices.Equal(gens, want) {
		t.Errorf("generations %v, want %v", gens, want)
	}
	ops := doc.Agents[0]
	if ops.ID != "ops" || ops.SQLiteStore == nil || ops.SQLiteStore.SchemaVersion != 23 || ops.SQLiteStore.MemoryIndex == nil ||
		!slices.Equal(ops.SQLiteStore.MemoryIndex.Changed, []string{"MEMORY.md"}) || len(ops.Diagnosis) != 1 || doc.Counts["memory-index-stale"] != 1 {
		t.Errorf("agent ops %+v, counts %v", ops, doc.Counts)
	}
	if len(ops.SQLiteStore.Archives) != 2 {
		t.Errorf("archives %+v", ops.SQLiteStore.Archives)
	}
	text, _, _ := runCLI(t, "status", "--agent", "ops", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	for _, want := range []string{"agent:ops:main (reset)", "sqlite-session,no-cursor,candidate", "memory-index-stale", "Store:     ops: 2 session keys, 4 generations"} {
		if !strings.Contains(text, want) {
			t.Errorf("status text lacks %q:\n%s", want, text)
		}
	}
}

// TestTreeByKeyWithGenerations: a key with several generations shows the
// current one and lists the others, for a live file beside its /new archive
// and for a SQLite-era key alike.
func TestTreeByKeyWithGenerations(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	flags := []string{"--json", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault")}
	m := demoManifest(t, dir)
	for _, c := range []struct {
		key, current string
		others       int
		rules        string
	}{
		{m.ResetArchive.Key, m.ResetSuccessor.SessionID, 1, "pi"},
		{m.SQLiteMain.Key, m.SQLiteMain.SessionID, 2, "openclaw-2026.9"},
	} {
		out, errOut, code := runCLI(t, append([]string{"tree", c.key}, flags...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.key, code, errOut)
		}
		var doc treeDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc.Header), c.current) || len(doc.Generations) != c.others || doc.Rules != c.rules {
			t.Errorf("%s: header %s, generations %+v, rules %s", c.key, doc.Header, doc.Generations, doc.Rules)
		}
		if c.rules == "openclaw-2026.9" {
			if doc.SQLite == nil || !doc.SQLite.OpenClawBranchKnown || doc.SQLite.OpenClawBranchDiffers || len(doc.Resets) != 1 || doc.LeafControls != 1 {
				t.Errorf("the SQLite session: %+v, resets %v, leaf controls %d", doc.SQLite, doc.Resets, doc.LeafControls)
			}
		}
	}
	// An earlier generation by its id; a cold one reads from its archive.
	for _, id := range m.SQLiteGenerations[:2] {
		out, errOut, code := runCLI(t, append([]string{"tree", id}, flags...)...)
		if code != 0 || !strings.Contains(out, id) {
			t.Errorf("%s: exit %d: %s", id, code, errOut)
		}
	}
}

// scanDemoDir scans a demo folder (DIR/state and DIR/vault) as status
// does, with no options.
func scanDemoDir(t *testing.T, dir string) *store.Snapshot {
	t.Helper()
	ws, err := store.Locate(store.OSEnv(), store.LocateOptions{StateDir: filepath.Join(dir, "state"), Vault: filepath.Join(dir, "vault")})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Scan(t.Context(), store.OS, ws, store.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// demoManifest regenerates nothing: the conformance demo's special cases,
// by their keys, from its status.
func demoManifest(t *testing.T, dir string) struct {
	ResetArchive, ResetSuccessor, SQLiteMain struct{ Key, SessionID string }
	SQLiteGenerations                        []string
} {
	t.Helper()
	snap := scanDemoDir(t, dir)
	var m struct {
		ResetArchive, ResetSuccessor, SQLiteMain struct{ Key, SessionID string }
		SQLiteGenerations                        []string
	}
	for _, r := range snap.Rows {
		switch {
		case r.Name.Kind == model.FileResetArchive && r.Key != "" && r.Agent == "main" && m.ResetArchive.Key == "":
			m.ResetArchive.Key, m.ResetArchive.SessionID = r.Key, r.SessionID
		case r.Generation != nil && r.Key == "agent:ops:main":
			m.SQLiteGenerations = append(m.SQLiteGenerations, r.SessionID)
			if r.Generation.Current {
				m.SQLiteMain.Key, m.SQLiteMain.SessionID = r.Key, r.SessionID
			}
		}
	}
	for _, r := range snap.Rows {
		if r.Origin == model.OriginIndex && r.Key == m.ResetArchive.Key {
			m.ResetSuccessor.Key, m.ResetSuccessor.SessionID = r.Key, r.SessionID
		}
	}
	return m
}

// TestSearchHitInSQLiteSession: a transcript hit in a SQLite-era session
// names the session and the event's seq (the store holds no file to open
// at a line), in text and in JSON, and that event holds the words.
func TestSearchHitInSQLiteSession(t *testing.T) {
	state, vault := searchEnv(t)
	m := demoManifest(t, filepath.Dir(state))
	out, errOut, code := runCLI(t, "search", "--json", "--transcripts", "--state-dir", state, "-v", vault, "riskier one")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Hits []struct {
			Path, SessionID, Kind string
			Line                  int
			Seq                   *int64
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Hits) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	h := doc.Hits[0]
	if h.SessionID != m.SQLiteMain.SessionID || h.Seq == nil || h.Line != int(*h.Seq)+1 || h.Kind != "message" || filepath.Base(h.Path) != "openclaw-agent.sqlite" {
		t.Fatalf("hit %+v, want session %s", h, m.SQLiteMain.SessionID)
	}
	db, err := agentdb.Open(t.Context(), h.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if b, err := db.Body(t.Context(), h.SessionID, *h.Seq); err != nil || !strings.Contains(b.Text(), "riskier one") {
		t.Errorf("seq %d of %s: %v, %v", *h.Seq, h.SessionID, b, err)
	}
	text, errOut, code := runCLI(t, "search", "--transcripts", "--state-dir", state, "-v", vault, "riskier one")
	want := fmt.Sprintf("[ops transcript] %s seq %d ", h.SessionID, *h.Seq)
	if code != 0 || !strings.HasPrefix(text, want) {
		t.Errorf("exit %d %s:\n%s\nwant it to start with %q", code, errOut, text, want)
	}
	// --agent keeps the hits of that agent's store too.
	text, errOut, code = runCLI(t, "search", "--transcripts", "--agent", "ops", "--state-dir", state, "-v", vault, "riskier one")
	if code != 0 || !strings.HasPrefix(text, want) {
		t.Errorf("--agent ops: exit %d %s:\n%s\nwant it to start with %q", code, errOut, text, want)
	}
}
