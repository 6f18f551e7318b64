package demo_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

const mib = 1 << 20

func generate(t *testing.T, opt demo.Options) (*demo.Manifest, string) {
	t.Helper()
	dir := t.TempDir()
	start := time.Now()
	m, err := demo.Generate(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %d sessions in %v", m.Sessions, time.Since(start))
	return m, dir
}

func baseOptions() demo.Options { return demo.Options{Seed: 7, Now: testNow} }

// base is the demo of baseOptions, generated once for the tests that read it.
func base(t *testing.T) (*demo.Manifest, string) {
	t.Helper()
	m := demotest.Shared(t, demotest.Spec{Options: baseOptions()})
	return m, filepath.Dir(m.StateDir)
}

func TestMain(m *testing.M) { os.Exit(demotest.Main(m)) }

// --- helpers reading the files back ---

type cursor struct {
	LastObservedOffset float64 `json:"lastObservedOffset"`
	LastObservedAt     string  `json:"lastObservedAt"`
	SessionKey         string  `json:"sessionKey"`
	LastFileSize       float64 `json:"lastFileSize"`
}

func readCursors(t *testing.T, m *demo.Manifest) map[string]cursor {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(m.VaultDir, ".clawvault", "observe-cursors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]cursor
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func readStore(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func storeOf(t *testing.T, m *demo.Manifest, agent string) map[string]map[string]any {
	return readStore(t, filepath.Join(m.StateDir, "agents", agent, "sessions", "sessions.json"))
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// lines splits a file into lines; torn reports a last line without '\n'.
func lines(t *testing.T, path string) (out [][]byte, torn bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".zst") {
		// A zstd-compressed archive (cold, or a reclaimed generation).
		dec, _ := zstd.NewReader(nil)
		defer dec.Close()
		if data, err = dec.DecodeAll(data, nil); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	torn = len(data) > 0 && data[len(data)-1] != '\n'
	data = bytes.TrimSuffix(data, []byte("\n"))
	if len(data) == 0 {
		return nil, torn
	}
	return bytes.Split(data, []byte("\n")), torn
}

type entry struct {
	Type             string          `json:"type"`
	Version          *int            `json:"version"`
	ID               *string         `json:"id"`
	ParentID         *string         `json:"parentId"`
	Timestamp        string          `json:"timestamp"`
	ParentSession    string          `json:"parentSession"`
	FirstKeptEntryID string          `json:"firstKeptEntryId"`
	FirstKeptIndex   *int            `json:"firstKeptEntryIndex"`
	FromID           string          `json:"fromId"`
	TargetID         string          `json:"targetId"`
	Label            *string         `json:"label"`
	Name             string          `json:"name"`
	CustomType       string          `json:"customType"`
	Message          json.RawMessage `json:"message"`
}

type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Provider   string          `json:"provider"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason"`
	Usage      *struct {
		TotalTokens int `json:"totalTokens"`
	} `json:"usage"`
}

func entries(t *testing.T, path string) []entry {
	t.Helper()
	ls, _ := lines(t, path)
	var out []entry
	for i, l := range ls {
		var e entry
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatalf("%s:%d: %v", filepath.Base(path), i+1, err)
		}
		out = append(out, e)
	}
	return out
}

func threshold(size int64) int64 {
	switch {
	case size < 1<<20:
		return 51200
	case size <= 5<<20:
		return 150 * 1024
	}
	return 300 * 1024
}

func onBoundary(t *testing.T, path string, offset int64) bool {
	t.Helper()
	if offset == 0 {
		return true
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return offset <= int64(len(data)) && data[offset-1] == '\n'
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

var (
	sessionIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,127}$`)
	uuidV4Re    = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	entryIDRe   = regexp.MustCompile(`^[0-9a-f]{8}$`)
	archiveRe   = regexp.MustCompile(`\.jsonl\.(reset|deleted)\.(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(\.\d{3})?Z)$`)
	cursorIDRe  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,200}$`)
	scoredRe    = regexp.MustCompile(`^(?:-\s*)?\[(decision|preference|fact|commitment|task|todo|commitment-unresolved|milestone|lesson|relationship|project)\|c=(\d\.\d\d)\|i=(\d\.\d\d)\]\s+(.+)$`)
	emojiRe     = regexp.MustCompile(`^(?:-\s*)?(🔴|🟡|🟢)\s+(\d{2}:\d{2})?\s*(.+)$`)
)

// --- the special cases, checked from the files ---

func TestCases(t *testing.T) {
	t.Parallel()
	m, _ := base(t)
	cursors := readCursors(t, m)
	mainStore := storeOf(t, m, "main")
	workStore := storeOf(t, m, "work")
	row := func(c demo.Case) map[string]any {
		t.Helper()
		store := mainStore
		if c.Agent == "work" {
			store = workStore
		}
		r := store[c.Key]
		if r == nil {
			t.Fatalf("no sessions.json row for %s", c.Key)
		}
		return r
	}

	t.Run("MainNeverObserved", func(t *testing.T) {
		c := m.MainNeverObserved
		if c.Key != "agent:main:main" || row(c)["sessionId"] != c.SessionID || row(c)["sessionFile"] != c.File {
			t.Fatalf("bad case %+v", c)
		}
		if s := size(t, c.File); s < demo.DefaultMainBytes*95/100 || s > demo.DefaultMainBytes*105/100 {
			t.Errorf("size %d, want about %d", s, demo.DefaultMainBytes)
		}
		if _, ok := cursors[c.SessionID]; ok {
			t.Error("main has a cursor")
		}
		compactions, toolCalls := 0, 0
		for _, e := range entries(t, c.File) {
			if e.Type == "compaction" {
				compactions++
			}
			if e.Type == "message" && bytes.Contains(e.Message, []byte(`"type":"toolCall"`)) {
				toolCalls++
			}
		}
		if compactions < 5 || toolCalls < 100 {
			t.Errorf("compactions %d, tool calls %d", compactions, toolCalls)
		}
		if got := row(c)["compactionCount"]; got != float64(compactions) {
			t.Errorf("compactionCount %v, file has %d", got, compactions)
		}
	})

	t.Run("DMBelowThreshold", func(t *testing.T) {
		c := m.DMBelowThreshold
		s := size(t, c.File)
		pending := s
		if cur, ok := cursors[c.SessionID]; ok {
			pending = s - int64(cur.LastObservedOffset)
		}
		if s >= 1<<20 || pending >= 51200 || !strings.Contains(c.Key, ":direct:") {
			t.Errorf("size %d pending %d key %s", s, pending, c.Key)
		}
	})

	t.Run("ResetArchive", func(t *testing.T) {
		c := m.ResetArchive
		if !archiveRe.MatchString(c.File) || !strings.Contains(c.File, ".jsonl.reset.") {
			t.Fatalf("name %s", c.File)
		}
		cur, ok := cursors[c.SessionID]
		s := size(t, c.File)
		if !ok || cur.SessionKey != c.Key || int64(cur.LastObservedOffset) > s-51200 || !onBoundary(t, c.File, int64(cur.LastObservedOffset)) {
			t.Errorf("cursor %+v, archive size %d", cur, s)
		}
		r := row(c)
		if r["sessionId"] == c.SessionID || r["sessionId"] != m.ResetSuccessor.SessionID {
			t.Errorf("row still points at the archived session: %v", r["sessionId"])
		}
		size(t, m.ResetSuccessor.File)
	})

	t.Run("Truncated", func(t *testing.T) {
		c := m.Truncated
		cur, ok := cursors[c.SessionID]
		if s := size(t, c.File); !ok || int64(cur.LastObservedOffset) <= s {
			t.Errorf("cursor %+v, size %d", cur, s)
		}
		row(c)
	})

	t.Run("Malformed", func(t *testing.T) {
		c := m.Malformed
		ls, torn := lines(t, c.File)
		var bad []int
		for i, l := range ls {
			if !json.Valid(l) {
				bad = append(bad, i+1)
			}
		}
		if !torn || len(bad) < 4 || bad[len(bad)-1] != len(ls) {
			t.Fatalf("torn %v, bad lines %v of %d", torn, bad, len(ls))
		}
		if bad[0] < len(ls)/4 {
			t.Errorf("malformed lines should sit in the middle: %v of %d", bad, len(ls))
		}
		cur := cursors[c.SessionID]
		if !onBoundary(t, c.File, int64(cur.LastObservedOffset)) {
			t.Errorf("cursor %v not on a line boundary", cur.LastObservedOffset)
		}
		row(c)
	})

	t.Run("MissingFile", func(t *testing.T) {
		c := m.MissingFile
		if row(c)["sessionFile"] != c.File {
			t.Fatal("sessionFile differs")
		}
		for _, p := range []string{c.File, filepath.Join(filepath.Dir(c.File), c.SessionID+".jsonl")} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("%s exists", p)
			}
		}
	})

	t.Run("FlushSkipped", func(t *testing.T) {
		r := row(m.FlushSkipped)
		if r["compactionCount"] != 3.0 || r["memoryFlushCompactionCount"] != 1.0 {
			t.Errorf("compactionCount %v memoryFlushCompactionCount %v", r["compactionCount"], r["memoryFlushCompactionCount"])
		}
		n := 0
		for _, e := range entries(t, m.FlushSkipped.File) {
			if e.Type == "compaction" {
				n++
			}
		}
		if n != 3 {
			t.Errorf("file has %d compactions", n)
		}
	})

	t.Run("Stale", func(t *testing.T) {
		c := m.Stale
		cur := cursors[c.SessionID]
		at := mustTime(t, cur.LastObservedAt)
		if s := size(t, c.File); testNow.Sub(at) <= 12*time.Hour || int64(cur.LastFileSize) >= s {
			t.Errorf("cursor %+v, size %d", cur, s)
		}
		row(c)
	})

	t.Run("ObservedCandidate", func(t *testing.T) {
		c := m.ObservedCandidate
		cur, ok := cursors[c.SessionID]
		off := int64(cur.LastObservedOffset)
		s := size(t, c.File)
		if !ok || !onBoundary(t, c.File, off) || s-off < threshold(s) {
			t.Errorf("cursor %+v, size %d, threshold %d", cur, s, threshold(s))
		}
		if testNow.Sub(mustTime(t, cur.LastObservedAt)) > 12*time.Hour {
			t.Errorf("observed too long ago to be only a candidate: %s", cur.LastObservedAt)
		}
		row(c)
	})

	t.Run("FullyObserved", func(t *testing.T) {
		c := m.FullyObserved
		cur := cursors[c.SessionID]
		s := size(t, c.File)
		if int64(cur.LastObservedOffset) != s || int64(cur.LastFileSize) != s || testNow.Sub(mustTime(t, cur.LastObservedAt)) > 12*time.Hour {
			t.Errorf("cursor %+v, size %d", cur, s)
		}
		row(c)
	})

	t.Run("V1", func(t *testing.T) {
		es := entries(t, m.V1.File)
		if es[0].Type != "session" || es[0].Version != nil {
			t.Fatal("v1 header has a version")
		}
		kept := false
		for _, e := range es[1:] {
			if e.ID != nil || e.ParentID != nil {
				t.Fatal("v1 entry with id/parentId")
			}
			if e.Type == "compaction" && e.FirstKeptIndex != nil {
				kept = *e.FirstKeptIndex > 0 && *e.FirstKeptIndex < len(es) && es[*e.FirstKeptIndex].Type == "message"
			}
		}
		if !kept {
			t.Error("no compaction with a valid firstKeptEntryIndex")
		}
		row(m.V1)
	})

	t.Run("V2", func(t *testing.T) {
		es := entries(t, m.V2.File)
		hook := false
		for _, e := range es {
			hook = hook || e.Type == "message" && bytes.Contains(e.Message, []byte(`"role":"hookMessage"`))
		}
		if es[0].Version == nil || *es[0].Version != 2 || !hook {
			t.Errorf("version %v, hookMessage %v", es[0].Version, hook)
		}
		row(m.V2)
	})

	t.Run("Topic", func(t *testing.T) {
		c := m.Topic
		if filepath.Base(c.File) != c.SessionID+"-topic-42.jsonl" || !strings.Contains(c.Key, ":telegram:group:") || !strings.HasSuffix(c.Key, ":topic:42") {
			t.Fatalf("%+v", c)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(c.File), c.SessionID+".jsonl")); !os.IsNotExist(err) {
			t.Error("<id>.jsonl exists")
		}
		if row(c)["sessionFile"] != c.File {
			t.Error("row does not name the topic file")
		}
	})

	t.Run("Checkpoint", func(t *testing.T) {
		c := m.Checkpoint
		if !regexp.MustCompile(`^` + c.SessionID + `\.checkpoint\.[0-9a-f-]{36}\.jsonl$`).MatchString(filepath.Base(c.File)) {
			t.Fatalf("name %s", c.File)
		}
		cp, _ := os.ReadFile(c.File)
		full, _ := os.ReadFile(row(c)["sessionFile"].(string))
		if len(cp) == 0 || len(cp) >= len(full) || !bytes.HasPrefix(full, cp) || cp[len(cp)-1] != '\n' {
			t.Errorf("checkpoint (%d bytes) is not a line-aligned prefix of the session (%d bytes)", len(cp), len(full))
		}
		if bytes.Contains(cp, []byte(`"type":"compaction"`)) || !bytes.Contains(full[len(cp):], []byte(`"type":"compaction"`)) {
			t.Error("checkpoint should end right before the first compaction")
		}
	})

	t.Run("CursorInvalid", func(t *testing.T) {
		cur, ok := cursors[m.CursorInvalid.SessionID]
		if !ok || cur.LastObservedOffset >= 0 && cur.SessionKey != "" {
			t.Errorf("cursor %+v should fail ClawVault's validation", cur)
		}
		row(m.CursorInvalid)
	})

	t.Run("BadName", func(t *testing.T) {
		for _, c := range []demo.Case{m.BadName, m.Backup} {
			name := strings.TrimSuffix(filepath.Base(c.File), ".jsonl")
			if sessionIDRe.MatchString(name) && !strings.Contains(name, ".backup") {
				t.Errorf("%s is a valid session id", name)
			}
			size(t, c.File)
		}
	})

	t.Run("Deleted", func(t *testing.T) {
		for _, c := range []demo.Case{m.Deleted, m.OldDeleted, m.OldReset} {
			if !archiveRe.MatchString(c.File) {
				t.Errorf("name %s", c.File)
			}
		}
		for _, c := range []demo.Case{m.OldDeleted, m.OldReset} {
			fi, err := os.Stat(c.File)
			if err != nil || testNow.Sub(fi.ModTime()) < 30*24*time.Hour {
				t.Errorf("%s should be older than 30 days", c.File)
			}
			ts, err := time.Parse("2006-01-02T15-04-05.000Z", archiveRe.FindStringSubmatch(c.File)[2])
			if err != nil || testNow.Sub(ts) < 30*24*time.Hour {
				t.Errorf("%s: archive stamp not older than 30 days (%v)", c.File, err)
			}
		}
	})

	t.Run("Fork", func(t *testing.T) {
		c := m.Fork
		if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_` + c.SessionID + `\.jsonl$`).MatchString(filepath.Base(c.File)) {
			t.Fatalf("name %s", c.File)
		}
		h := entries(t, c.File)[0]
		if h.ParentSession != m.ObservedCandidate.File {
			t.Errorf("parentSession %q", h.ParentSession)
		}
		row(c)
	})

	t.Run("Heartbeat", func(t *testing.T) {
		c := m.Heartbeat
		if s := size(t, c.File); s < demo.DefaultHeartbeatBytes*95/100 || s > demo.DefaultHeartbeatBytes*105/100 {
			t.Errorf("size %d", s)
		}
		ok, noReply, real := 0, 0, 0
		for _, e := range entries(t, c.File) {
			var msg message
			if e.Type != "message" || json.Unmarshal(e.Message, &msg) != nil || msg.Role != "assistant" {
				continue
			}
			switch {
			case bytes.Equal(msg.Content, []byte(`[{"type":"text","text":"HEARTBEAT_OK"}]`)):
				ok++
			case bytes.Equal(msg.Content, []byte(`[{"type":"text","text":"NO_REPLY"}]`)):
				noReply++
			case msg.StopReason == "stop":
				real++
			}
		}
		if ok < 500 || noReply == 0 || real == 0 || real > ok/10 {
			t.Errorf("HEARTBEAT_OK %d, NO_REPLY %d, other replies %d", ok, noReply, real)
		}
		if !strings.HasSuffix(c.Key, ":heartbeat") {
			t.Errorf("key %s", c.Key)
		}
	})

	t.Run("Branchy", func(t *testing.T) {
		es := entries(t, m.Branchy.File)
		children := map[string]int{}
		ids := map[string]bool{}
		var summary, set, cleared, info bool
		for _, e := range es[1:] {
			ids[*e.ID] = true
			if e.ParentID != nil {
				children[*e.ParentID]++
			}
			switch e.Type {
			case "branch_summary":
				summary = e.ParentID != nil && *e.ParentID == e.FromID && children[e.FromID] == 2
			case "label":
				set = set || e.Label != nil
				cleared = cleared || e.Label == nil
				if !ids[e.TargetID] {
					t.Errorf("label targets unknown %s", e.TargetID)
				}
			case "session_info":
				info = e.Name != ""
			}
		}
		if !summary || !set || !cleared || !info {
			t.Errorf("branch_summary %v, label set %v, cleared %v, session_info %v", summary, set, cleared, info)
		}
	})

	t.Run("NoMessages", func(t *testing.T) {
		c := m.NoMessages
		cur := cursors[c.SessionID]
		data, _ := os.ReadFile(c.File)
		off := int64(cur.LastObservedOffset)
		if off <= 0 || off >= int64(len(data)) || !onBoundary(t, c.File, off) {
			t.Fatalf("cursor %+v, size %d", cur, len(data))
		}
		for _, l := range bytes.Split(bytes.TrimSuffix(data[off:], []byte("\n")), []byte("\n")) {
			var e entry
			if json.Unmarshal(l, &e) != nil || e.Type == "message" || e.Type == "custom_message" {
				t.Errorf("pending line %s", l)
			}
		}
		row(c)
	})

	t.Run("SQLite", func(t *testing.T) {
		db, err := sql.Open("sqlite", "file:"+m.SQLitePath+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var version, nodes, compressed, archives, cold, sources int
		db.QueryRow(`SELECT schema_version FROM schema_meta WHERE meta_key = 'primary' AND role = 'agent'`).Scan(&version)
		db.QueryRow(`SELECT count(*) FROM session_nodes`).Scan(&nodes)
		db.QueryRow(`SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL`).Scan(&compressed)
		db.QueryRow(`SELECT count(*) FROM session_transcript_archives`).Scan(&archives)
		db.QueryRow(`SELECT count(*) FROM session_transcript_cold_archives`).Scan(&cold)
		db.QueryRow(`SELECT count(*) FROM memory_index_sources`).Scan(&sources)
		if version != demo.AgentSchemaVersion || nodes != 2 || compressed == 0 || archives != 1 || cold != 1 || sources != 2 {
			t.Errorf("schema %d, %d nodes, %d compressed events, %d archives, %d cold, %d memory sources", version, nodes, compressed, archives, cold, sources)
		}
		var reasons []string
		rows, _ := db.Query(`SELECT coalesce(reason, '') FROM session_windows WHERE session_key = ? ORDER BY created_at`, m.SQLiteMain.Key)
		for rows.Next() {
			var r string
			rows.Scan(&r)
			reasons = append(reasons, r)
		}
		rows.Close()
		if want := []string{"initial", "reset", "rollover"}; !slices.Equal(reasons, want) || len(m.SQLiteGenerations) != 3 {
			t.Errorf("generations %v (%v), want %v", reasons, m.SQLiteGenerations, want)
		}
		var types []string
		rows, _ = db.Query(`SELECT DISTINCT event_type FROM transcript_event_identities WHERE session_id = ? AND event_type IN ('reset', 'leaf') ORDER BY 1`, m.SQLiteMain.SessionID)
		for rows.Next() {
			var ty string
			rows.Scan(&ty)
			types = append(types, ty)
		}
		rows.Close()
		if !slices.Equal(types, []string{"leaf", "reset"}) {
			t.Errorf("the current ops session holds %v, want a reset boundary and a leaf control", types)
		}
		if fi, err := os.Stat(m.SQLiteDeleted.File); err != nil || fi.Size() == 0 {
			t.Errorf("the deleted session's archive file: %v", err)
		}
		if _, err := os.Stat(filepath.Join(m.StateDir, "agents", "ops", "sessions", "sessions.json")); !os.IsNotExist(err) {
			t.Error("ops still has a file-era sessions.json")
		}
		coldFiles, _ := filepath.Glob(filepath.Join(m.StateDir, "agents", "ops", "sessions", "cold", "*.jsonl.zst"))
		if len(coldFiles) != 1 {
			t.Errorf("cold archive files %v", coldFiles)
		}
	})
}

// --- format checks over the whole tree ---

func TestEveryJSONLLineParses(t *testing.T) {
	t.Parallel()
	m, dir := base(t)
	checked := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".jsonl") {
			return err
		}
		if path == m.Malformed.File {
			return nil
		}
		ls, torn := lines(t, path)
		if torn && !strings.HasSuffix(path, ".lock") {
			t.Errorf("%s: no trailing newline", path)
		}
		for i, l := range ls {
			if !json.Valid(l) {
				t.Errorf("%s:%d: invalid JSON", path, i+1)
			}
		}
		checked++
		return nil
	})
	if checked < 50 {
		t.Errorf("only %d JSONL files", checked)
	}
}

// TestTranscriptTrees checks every v2/v3 transcript: 8-hex ids, parents written before
// their children, timestamps that never go back, compactions keeping an entry of the
// active path, branch summaries as pi writes them, mtime = last timestamp.
func TestTranscriptTrees(t *testing.T) {
	t.Parallel()
	m, _ := base(t)
	files, _ := filepath.Glob(filepath.Join(m.StateDir, "agents", "*", "sessions", "*.jsonl*"))
	more, _ := filepath.Glob(filepath.Join(m.StateDir, "agents", "*", "sessions", "*", "*.jsonl"))
	files = append(files, more...)
	n := 0
	for _, f := range files {
		if f == m.Malformed.File || f == m.V1.File || strings.HasSuffix(f, ".lock") || strings.HasSuffix(f, ".zst") {
			continue // (a .zst archive's mtime is when it was archived)
		}
		n++
		es := entries(t, f)
		if es[0].Type != "session" || es[0].ID == nil {
			t.Errorf("%s: no header", f)
			continue
		}
		fi, _ := os.Stat(f)
		if last := mustTime(t, es[len(es)-1].Timestamp); !fi.ModTime().Equal(last) {
			t.Errorf("%s: mtime %v, last entry %v", filepath.Base(f), fi.ModTime().UTC(), last)
		}
		parent := map[string]string{}
		var prev time.Time
		for i, e := range es[1:] {
			if e.ID == nil || !entryIDRe.MatchString(*e.ID) {
				t.Fatalf("%s:%d: id %v", f, i+2, e.ID)
			}
			if _, dup := parent[*e.ID]; dup {
				t.Fatalf("%s:%d: duplicate id", f, i+2)
			}
			p := ""
			if e.ParentID != nil {
				p = *e.ParentID
				if _, ok := parent[p]; !ok {
					t.Fatalf("%s:%d: parent %s not written before", f, i+2, p)
				}
			} else if i > 0 {
				t.Errorf("%s:%d: second root", f, i+2)
			}
			parent[*e.ID] = p
			ts := mustTime(t, e.Timestamp)
			if ts.Before(prev) || ts.After(testNow) {
				t.Errorf("%s:%d: timestamp %s out of order", f, i+2, e.Timestamp)
			}
			prev = ts
		}
		// The active path: leaf (last entry) to root.
		onPath := map[string]bool{}
		for id := *es[len(es)-1].ID; id != ""; id = parent[id] {
			onPath[id] = true
		}
		for i, e := range es[1:] {
			switch e.Type {
			case "compaction":
				if onPath[*e.ID] && !onPath[e.FirstKeptEntryID] {
					t.Errorf("%s:%d: firstKeptEntryId %s not on the active path", f, i+2, e.FirstKeptEntryID)
				}
			case "branch_summary":
				if *e.ParentID != e.FromID {
					t.Errorf("%s:%d: branch_summary parentId %s != fromId %s", f, i+2, *e.ParentID, e.FromID)
				}
			}
		}
	}
	if n < 40 {
		t.Errorf("checked %d transcripts", n)
	}
}

func TestStoresAndCursorFile(t *testing.T) {
	t.Parallel()
	m, _ := base(t)
	// JSON.stringify(x, null, 2) is what encoding/json's Indent makes of the compact form.
	stringify := func(data []byte) []byte {
		var compact, out bytes.Buffer
		json.Compact(&compact, data)
		json.Indent(&out, compact.Bytes(), "", "  ")
		return out.Bytes()
	}
	referenced := map[string]bool{}
	total := 0
	for _, agent := range []string{"main", "work"} {
		path := filepath.Join(m.StateDir, "agents", agent, "sessions", "sessions.json")
		data, _ := os.ReadFile(path)
		if !bytes.Equal(stringify(data), data) {
			t.Errorf("%s is not formatted like JSON.stringify(store, null, 2)", path)
		}
		for key, r := range readStore(t, path) {
			total++
			id, _ := r["sessionId"].(string)
			file, _ := r["sessionFile"].(string)
			if !strings.HasPrefix(key, "agent:"+agent+":") || key != strings.ToLower(key) || !uuidV4Re.MatchString(id) ||
				!filepath.IsAbs(file) || r["updatedAt"] == nil {
				t.Errorf("bad row %s: %v", key, r)
			}
			referenced[file] = true
		}
	}
	// Sessions = rows + SQLite session_nodes (2) + orphan transcripts.
	orphans := 0
	for _, agent := range []string{"main", "work"} {
		files, _ := filepath.Glob(filepath.Join(m.StateDir, "agents", agent, "sessions", "*.jsonl"))
		for _, f := range files {
			if !referenced[f] && !strings.Contains(f, ".checkpoint.") {
				orphans++
			}
		}
	}
	if got := total + 2 + orphans; got != m.Sessions || m.Sessions < 40 {
		t.Errorf("Manifest.Sessions %d, files say %d (%d rows, %d orphans)", m.Sessions, got, total, orphans)
	}
	baks, _ := filepath.Glob(filepath.Join(m.StateDir, "agents", "*", "sessions", "sessions.json.bak.*"))
	locks, _ := filepath.Glob(filepath.Join(m.StateDir, "agents", "*", "sessions", "*.lock"))
	if len(baks) == 0 || len(locks) == 0 {
		t.Errorf("bak %v lock %v", baks, locks)
	}

	data, _ := os.ReadFile(filepath.Join(m.VaultDir, ".clawvault", "observe-cursors.json"))
	if !bytes.HasSuffix(data, []byte("}\n")) || !bytes.Equal(append(stringify(data), '\n'), data) {
		t.Error("cursor file is not JSON.stringify(store, null, 2) + \"\\n\"")
	}
	valid := 0
	exceptions := map[string]bool{m.Truncated.SessionID: true}
	for id, c := range readCursors(t, m) {
		if !cursorIDRe.MatchString(id) || c.LastObservedOffset < 0 || c.SessionKey == "" || c.LastObservedAt == "" {
			continue // dropped by ClawVault on load (CursorInvalid and friends)
		}
		valid++
		if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`).MatchString(c.LastObservedAt) {
			t.Errorf("%s: lastObservedAt %s", id, c.LastObservedAt)
		}
		if exceptions[id] {
			continue
		}
		file := findTranscript(t, m, id)
		if file == "" {
			t.Errorf("cursor %s names no file", id)
		} else if !onBoundary(t, file, int64(c.LastObservedOffset)) {
			t.Errorf("cursor %s offset %v not on a line boundary of %s", id, c.LastObservedOffset, file)
		}
	}
	if valid < 10 {
		t.Errorf("%d valid cursors", valid)
	}
}

func findTranscript(t *testing.T, m *demo.Manifest, id string) string {
	for _, pattern := range []string{id + ".jsonl", id + ".jsonl.reset.*", id + ".jsonl.deleted.*"} {
		files, _ := filepath.Glob(filepath.Join(m.StateDir, "agents", "*", "sessions", pattern))
		if len(files) > 0 {
			return files[0]
		}
	}
	return ""
}

func TestKeyKinds(t *testing.T) {
	t.Parallel()
	m, _ := base(t)
	var keys []string
	for _, agent := range []string{"main", "work"} {
		for k := range storeOf(t, m, agent) {
			keys = append(keys, k)
		}
	}
	for _, pattern := range []string{
		`^agent:main:main$`, `^agent:main:direct:[a-z]+$`, `^agent:main:telegram:direct:\d+$`, `^agent:main:telegram:dm:\d+$`,
		`^agent:main:whatsapp:default:direct:\+15551234567$`, `^agent:main:telegram:group:-100\d+$`,
		`^agent:main:telegram:group:-100\d+:topic:\d+$`, `^agent:main:discord:channel:\d+$`, `^agent:main:discord:channel:\d+:thread:\d+$`,
		`^agent:main:slack:channel:[a-z0-9]+$`, `^agent:main:cron:[a-z-]+$`, `^agent:main:cron:[a-z-]+:run:[0-9a-f-]{36}$`,
		`^agent:main:hook:[0-9a-f-]{36}$`, `^agent:main:subagent:[0-9a-f-]{36}$`, `^agent:main:subagent:[0-9a-f-]{36}:subagent:[0-9a-f-]{36}$`,
		`^agent:main:main:heartbeat$`, `^agent:work:main$`,
	} {
		re := regexp.MustCompile(pattern)
		if !slices.ContainsFunc(keys, re.MatchString) {
			t.Errorf("no key matches %s", pattern)
		}
	}
	runs := 0
	for _, k := range keys {
		if strings.HasPrefix(k, "agent:main:cron:nightly-digest:run:") {
			runs++
		}
	}
	if runs < 3 || len(m.StaleRows) < 2 {
		t.Errorf("cron runs %d, stale rows %d", runs, len(m.StaleRows))
	}
	for _, c := range m.StaleRows {
		if r := storeOf(t, m, c.Agent)[c.Key]; testNow.Sub(time.UnixMilli(int64(r["updatedAt"].(float64)))) < 45*24*time.Hour {
			t.Errorf("%s is not stale", c.Key)
		}
	}
}

func TestVault(t *testing.T) {
	t.Parallel()
	m, _ := base(t)
	v := m.VaultDir
	var meta map[string]any
	data, _ := os.ReadFile(filepath.Join(v, ".clawvault.json"))
	if err := json.Unmarshal(data, &meta); err != nil || meta["version"] != "1.0.0" || meta["qmdCollection"] != "vault" {
		t.Fatalf("meta %v %v", meta, err)
	}
	for _, p := range []string{"README.md", "inbox/welcome.md", "templates/decision.md", "all-tasks.base", "backlog.base",
		".clawvault/graph-index.json", "ledger/raw", "ledger/reflections", "decisions/use-postgresql-for-billing.md"} {
		if _, err := os.Stat(filepath.Join(v, p)); err != nil {
			t.Error(err)
		}
	}
	days, _ := filepath.Glob(filepath.Join(v, "ledger", "observations", "*", "*", "*.md"))
	old := 0
	types := map[string]bool{}
	mdBytes := int64(0)
	for _, f := range days {
		rel, _ := filepath.Rel(filepath.Join(v, "ledger", "observations"), f)
		date := strings.TrimSuffix(strings.ReplaceAll(rel, string(filepath.Separator), "-"), ".md")
		d, _ := time.Parse("2006-01-02", date)
		if testNow.Sub(d) > 15*24*time.Hour {
			old++
		}
		ls, _ := lines(t, f)
		if string(ls[0]) != "## "+date || len(ls[1]) != 0 {
			t.Errorf("%s: heading %q", f, ls[0])
		}
		for _, l := range ls[2:] {
			sm := scoredRe.FindStringSubmatch(string(l))
			if sm == nil {
				t.Errorf("%s: %q", f, l)
				continue
			}
			types[sm[1]] = true
		}
	}
	if len(days) < 20 || old < 5 || len(types) < 10 {
		t.Errorf("%d ledger days, %d older than 15 days, types %v", len(days), old, types)
	}
	legacy, _ := filepath.Glob(filepath.Join(v, "observations", "*.md"))
	archived, _ := filepath.Glob(filepath.Join(v, "ledger", "archive", "observations", "*", "*", "*.md"))
	raw, _ := filepath.Glob(filepath.Join(v, "ledger", "raw", "openclaw", "*", "*", "*.jsonl"))
	refl, _ := filepath.Glob(filepath.Join(v, "ledger", "reflections", "*-W*.md"))
	backlog, _ := filepath.Glob(filepath.Join(v, "backlog", "*.md"))
	people, _ := filepath.Glob(filepath.Join(v, "people", "*", "*.md"))
	northwind, _ := filepath.Glob(filepath.Join(v, "projects", "northwind", "*.md"))
	decisions, _ := filepath.Glob(filepath.Join(v, "decisions", "????-??-??.md"))
	if len(legacy) == 0 || len(archived) == 0 || len(raw) == 0 || len(refl) == 0 || len(backlog) == 0 ||
		len(people) == 0 || len(northwind) == 0 || len(decisions) == 0 {
		t.Fatalf("legacy %d archived %d raw %d reflections %d backlog %d people %d northwind %d decisions %d",
			len(legacy), len(archived), len(raw), len(refl), len(backlog), len(people), len(northwind), len(decisions))
	}
	ls, _ := lines(t, legacy[0])
	if !emojiRe.Match(ls[2]) {
		t.Errorf("legacy line %q", ls[2])
	}
	ls, _ = lines(t, decisions[len(decisions)-1])
	if !strings.HasPrefix(string(ls[0]), "# decisions — ") || len(ls[1]) != 0 || !scoredRe.Match(ls[2]) {
		t.Errorf("routed file starts %q", ls[:3])
	}
	filepath.WalkDir(v, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			fi, _ := d.Info()
			mdBytes += fi.Size()
		}
		return nil
	})
	if mdBytes < demo.DefaultVaultBytes*8/10 || mdBytes > demo.DefaultVaultBytes*14/10 {
		t.Errorf("%d bytes of Markdown, want about %d", mdBytes, demo.DefaultVaultBytes)
	}
	// Something for search to find.
	all := readAll(t, v, ".md")
	for _, want := range []string{"We decided to use PostgreSQL", "SOC2 questionnaire", "Lesson learned:", "Talked to Elena", "Shipped"} {
		if !strings.Contains(all, want) {
			t.Errorf("vault never mentions %q", want)
		}
	}
}

func readAll(t *testing.T, dir, suffix string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, suffix) {
			data, _ := os.ReadFile(path)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

func TestWorkspaceAndConfig(t *testing.T) {
	t.Parallel()
	m, _ := base(t)
	memory, err := os.ReadFile(filepath.Join(m.Workspace, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## People", "```bash", "Zoë", "Müller"} {
		if !bytes.Contains(memory, []byte(want)) {
			t.Errorf("MEMORY.md lacks %q", want)
		}
	}
	notes, _ := filepath.Glob(filepath.Join(m.Workspace, "memory", "*.md"))
	workNotes, _ := filepath.Glob(filepath.Join(m.WorkWorkspace, "memory", "*.md"))
	if len(notes) < 8 || len(workNotes) < 2 {
		t.Errorf("daily notes: main %d, work %d", len(notes), len(workNotes))
	}
	for _, f := range []string{"AGENTS.md", "SOUL.md", "HEARTBEAT.md"} {
		size(t, filepath.Join(m.Workspace, f))
	}
	size(t, filepath.Join(m.WorkWorkspace, "MEMORY.md"))

	var cfg struct {
		Agents struct {
			List []struct {
				ID        string `json:"id"`
				Default   bool   `json:"default"`
				Workspace string `json:"workspace"`
			} `json:"list"`
		} `json:"agents"`
		Session struct {
			Maintenance map[string]any `json:"maintenance"`
		} `json:"session"`
	}
	data, _ := os.ReadFile(filepath.Join(m.StateDir, "openclaw.json"))
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	// No workspace paths: they would tie a copy of the demo to the original.
	if bytes.Contains(data, []byte(`"workspace"`)) {
		t.Errorf("openclaw.json names a workspace:\n%s", data)
	}
	if len(cfg.Agents.List) != 3 || !cfg.Agents.List[0].Default || cfg.Agents.List[1].ID != "work" ||
		cfg.Session.Maintenance["mode"] != "warn" || cfg.Session.Maintenance["pruneAfter"] != "30d" {
		t.Errorf("config %+v", cfg)
	}
	if len(m.CronRunLogs) < 2 {
		t.Fatalf("cron logs %v", m.CronRunLogs)
	}
	ls, _ := lines(t, m.CronRunLogs[0])
	var run map[string]any
	json.Unmarshal(ls[0], &run)
	for _, k := range []string{"ts", "jobId", "action", "status", "sessionId", "sessionKey", "runAtMs", "durationMs"} {
		if _, ok := run[k]; !ok {
			t.Errorf("cron run line lacks %s: %s", k, ls[0])
		}
	}
}

// --- determinism, scale, misuse ---

// treeHash hashes every file's path, bytes and mtime under dir.
func treeHash(t *testing.T, dir string) (string, int) {
	h := sha256.New()
	n := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		data, _ := os.ReadFile(path)
		fi, _ := d.Info()
		fmt.Fprintf(h, "%s\x00%d\x00%x\x00", rel, fi.ModTime().UnixNano(), sha256.Sum256(data))
		n++
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil)), n
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	opt := demo.Options{Seed: 42, Now: testNow, MainBytes: mib}
	var hashes []string
	for range 2 {
		os.RemoveAll(dir)
		if _, err := demo.Generate(context.Background(), dir, opt); err != nil {
			t.Fatal(err)
		}
		h, n := treeHash(t, dir)
		hashes = append(hashes, h)
		t.Logf("%d files, %s", n, h)
	}
	if hashes[0] != hashes[1] {
		t.Fatal("two runs with the same options differ")
	}
	os.RemoveAll(dir)
	opt.Seed = 43
	demo.Generate(context.Background(), dir, opt)
	if h, _ := treeHash(t, dir); h == hashes[0] {
		t.Error("another seed gave the same tree")
	}
}

func TestGenerateRefusesNonEmptyDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	if _, err := demo.Generate(context.Background(), dir, baseOptions()); err == nil {
		t.Fatal("generated into a non-empty directory")
	}
}

func TestScaleOptions(t *testing.T) {
	t.Parallel()
	if got := demo.ScaleOptions(1, 3, testNow); got != (demo.Options{Seed: 3, Now: testNow}) {
		t.Errorf("scale 1: %+v", got)
	}
	got := demo.ScaleOptions(100, 3, testNow)
	if got.Sessions != 10000 || got.HeartbeatBytes != 300*mib || got.VaultBytes < 15_000_000 || got.VaultBytes > 16_000_000 {
		t.Errorf("scale 100: %+v", got)
	}
	if got := demo.ScaleOptions(0, 3, testNow); got.Sessions != 0 {
		t.Errorf("scale 0: %+v", got)
	}
}

// WithSessions makes many more sessions without many more transcript
// bytes: at four times the sessions the filler transcripts hold about as
// much as before.
func TestWithSessions(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates two demos of 400 and 1,600 sessions")
	}
	transcriptBytes := func(m *demo.Manifest) int64 {
		var n int64
		filepath.WalkDir(m.StateDir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") && path != m.Heartbeat.File && path != m.MainNeverObserved.File {
				fi, _ := d.Info()
				n += fi.Size()
			}
			return nil
		})
		return n
	}
	// The main session's size is the same in both and not counted: 1 MiB
	// rather than the default 14 keeps the test to what it measures.
	base := demo.Options{Seed: 4, Now: testNow, Sessions: 400, MainBytes: mib}
	small, _ := generate(t, base)
	many, _ := generate(t, base.WithSessions(1600))
	if many.Sessions != 1600 {
		t.Fatalf("%d sessions", many.Sessions)
	}
	if a, b := transcriptBytes(small), transcriptBytes(many); b > a*3/2 {
		t.Errorf("400 sessions hold %d bytes of transcript, 1,600 hold %d", a, b)
	}
	if got := base.WithSessions(100); got.Sessions != 100 || got.FillerScale != 0 {
		t.Errorf("fewer sessions: %+v", got)
	}
}

// TestMedium generates a bigger demo (2,000 sessions, a 20 MiB heartbeat transcript).
func TestMedium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("medium demo skipped in -short mode")
	}
	// Medium in sessions, heartbeat and vault; the main session, which the
	// base demo's tests check at its default 14 MiB, is 1 MiB.
	opt := demo.Options{Seed: 9, Now: testNow, Sessions: 2000, HeartbeatBytes: 20 * mib, VaultBytes: 2 * mib, MainBytes: mib}
	m, dir := generate(t, opt)
	if m.Sessions != 2000 {
		t.Errorf("sessions %d", m.Sessions)
	}
	if s := size(t, m.Heartbeat.File); s < 19*mib || s > 21*mib {
		t.Errorf("heartbeat %d bytes", s)
	}
	rows := len(storeOf(t, m, "main")) + len(storeOf(t, m, "work"))
	if rows < 1900 {
		t.Errorf("%d rows", rows)
	}
	bad := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".jsonl") || path == m.Malformed.File {
			return err
		}
		ls, _ := lines(t, path)
		for _, l := range ls {
			if !json.Valid(l) {
				bad++
			}
		}
		return nil
	})
	if bad > 0 {
		t.Errorf("%d invalid JSONL lines", bad)
	}
	md := int64(0)
	filepath.WalkDir(m.VaultDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			fi, _ := d.Info()
			md += fi.Size()
		}
		return nil
	})
	if md < opt.VaultBytes*8/10 || md > opt.VaultBytes*3/2 {
		t.Errorf("vault Markdown %d bytes, want about %d", md, opt.VaultBytes)
	}
}
