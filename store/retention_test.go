package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
)

func TestLoadOpenClawSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "openclaw.json")
	set, err := LoadOpenClawSettings(OS, path)
	if err != nil || set.Exists || set.Maintenance != (model.MaintenanceSettings{}) {
		t.Fatalf("a missing file is OpenClaw's defaults: %+v %v", set, err)
	}
	os.WriteFile(path, []byte(`{
		// JSON5, as OpenClaw reads it
		"session": {"maintenance": {"mode": "enforce", "pruneAfter": 7, "maxEntries": 50, "resetArchiveRetention": false,
			"maxDiskBytes": "1gb", "highWaterBytes": 1000000,}},
		"cron": {"sessionRetention": "48h"},
		"agents": {"defaults": {"model": {"primary": "anthropic/claude-sonnet-4-6"}},
			"list": [{"id": "Work", "model": "openai/gpt-5.4"}]},
	}`), 0o644)
	set, err = LoadOpenClawSettings(OS, path)
	if err != nil {
		t.Fatal(err)
	}
	m := set.Maintenance
	got := []string{m.Mode.Value, m.PruneAfter.Value, m.MaxEntries.Value, m.ResetArchiveRetention.Value, m.MaxDiskBytes.Value,
		m.HighWaterBytes.Value, m.CronRetention.Value}
	if want := []string{"enforce", "7", "50", "false", "1gb", "1000000", "48h"}; !slices.Equal(got, want) || m.Mode.Source != path {
		t.Errorf("settings = %q, want %q (%+v)", got, want, m)
	}
	if set.DefaultModel != "anthropic/claude-sonnet-4-6" || set.AgentModels["work"] != "openai/gpt-5.4" {
		t.Errorf("models: %q %v", set.DefaultModel, set.AgentModels)
	}

	for data, want := range map[string]string{
		`{"session": {"maintenance": {"maxEntries": 1.5}}}`:         "maxEntries 1.5 must be a positive whole number",
		`{"session": {"maintenance": {"maxEntries": "500"}}}`:       `maxEntries is "500", not a number`,
		`{"session": {"maintenance": {"pruneAfter": ""}}}`:          "pruneAfter is empty",
		`{"session": {"maintenance": {"pruneAfter": true}}}`:        "pruneAfter has the wrong type",
		`{"session": {"maintenance": {"mode": "off"}}}`:             `"off" must be warn or enforce`,
		`{"session": {"maintenance": {"maxDiskBytes": false}}}`:     "maxDiskBytes has the wrong type",
		`{"cron": {"sessionRetention": 24}}`:                        "cron.sessionRetention has the wrong type",
		`{"session": {"maintenance": {"pruneDays": 0}}}`:            "pruneDays 0 must be a positive whole number",
		`{"session": {"maintenance": {"pruneAfter": "30d"}}, oops}`: "does not parse",
	} {
		os.WriteFile(path, []byte(data), 0o644)
		if _, err := LoadOpenClawSettings(OS, path); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err = %v, want %q", data, err, want)
		}
	}
	os.WriteFile(path, []byte(`{"cron": {"enabled": false}, "session": {"maintenance": {"pruneDays": 9}}}`), 0o644)
	if set, err := LoadOpenClawSettings(OS, path); err != nil || set.Maintenance.CronRetention.Value != "false" || set.Maintenance.PruneAfter.Value != "9d" {
		t.Errorf("cron off, legacy pruneDays: %+v %v", set, err)
	}
	os.Chmod(path, 0)
	if os.Geteuid() != 0 {
		if _, err := LoadOpenClawSettings(OS, path); err == nil || !strings.Contains(err.Error(), "cannot read") {
			t.Errorf("unreadable: %v", err)
		}
	}
}

func TestMaintenanceInputPaths(t *testing.T) {
	dir := t.TempDir()
	sessions := filepath.Join(dir, "agents", "main", "sessions")
	os.MkdirAll(sessions, 0o755)
	uuid := "0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3"
	other := "1c8f5b63-4d2e-4a7f-8b91-3e6d8fa2a5b4"
	for _, name := range []string{uuid + ".jsonl", uuid + "-topic-7.jsonl", "custom.jsonl", other + ".jsonl"} {
		os.WriteFile(filepath.Join(sessions, name), []byte("{}\n"), 0o644)
	}
	os.Symlink(filepath.Join(sessions, "custom.jsonl"), filepath.Join(sessions, "link.jsonl"))
	store := map[string]map[string]any{
		"a:plain":   {"sessionId": uuid, "updatedAt": 5},
		"a:topic":   {"sessionId": uuid, "updatedAt": "7", "sessionFile": uuid + "-topic-7.jsonl"},
		"a:custom":  {"sessionId": uuid, "sessionFile": filepath.Join(sessions, "custom.jsonl")},
		"a:stale":   {"sessionId": uuid, "updatedAt": null(), "sessionFile": other + ".jsonl"},
		"a:outside": {"sessionId": uuid, "sessionFile": "/elsewhere/agents/main/sessions/x.jsonl"},
		"a:escape":  {"sessionId": uuid, "sessionFile": "../x.jsonl"},
		"a:badid":   {"sessionId": "../etc"},
		"a:missing": {"sessionId": "ab12", "updatedAt": 1},
	}
	data, _ := json.MarshalIndent(store, "", "  ")
	storePath := filepath.Join(sessions, "sessions.json")
	os.WriteFile(storePath, data, 0o644)
	st, err := ReadSessionStoreFile(OS, storePath)
	if err != nil {
		t.Fatal(err)
	}
	in, err := MaintenanceInput(OS, Agent{ID: "main", SessionsDir: sessions, StorePath: storePath}, st)
	if err != nil {
		t.Fatal(err)
	}
	p := func(name string) string { return filepath.Join(sessions, name) }
	want := map[string]struct {
		transcript string
		candidates []string
		missing    bool
		time       model.RowTime
	}{
		"a:plain":   {p(uuid + ".jsonl"), []string{p(uuid + ".jsonl")}, false, model.RowTime{Set: true, Value: 5, IsNumber: true}},
		"a:topic":   {p(uuid + "-topic-7.jsonl"), []string{p(uuid + "-topic-7.jsonl"), p(uuid + ".jsonl")}, false, model.RowTime{Set: true, Value: 7}},
		"a:custom":  {p("custom.jsonl"), []string{p("custom.jsonl"), p(uuid + ".jsonl")}, false, model.RowTime{}},
		"a:stale":   {p(other + ".jsonl"), []string{p(uuid + ".jsonl"), p(other + ".jsonl")}, false, model.RowTime{}},
		"a:outside": {"", []string{p(uuid + ".jsonl")}, true, model.RowTime{}},
		"a:escape":  {p(uuid + ".jsonl"), []string{p(uuid + ".jsonl")}, false, model.RowTime{}},
		"a:badid":   {"", nil, false, model.RowTime{}},
		"a:missing": {p("ab12.jsonl"), []string{p("ab12.jsonl")}, true, model.RowTime{Set: true, Value: 1, IsNumber: true}},
	}
	for _, r := range in.Rows {
		w := want[r.Key]
		if r.Transcript != w.transcript || !slices.Equal(r.Candidates, w.candidates) || r.Missing != w.missing || r.UpdatedAt != w.time {
			t.Errorf("%s: transcript %q candidates %q missing %v time %+v\nwant %q %q %v %+v", r.Key, r.Transcript, r.Candidates, r.Missing, r.UpdatedAt,
				w.transcript, w.candidates, w.missing, w.time)
		}
		if r.ChunkBytes <= 0 {
			t.Errorf("%s: chunk %d", r.Key, r.ChunkBytes)
		}
	}
	var names []string
	for _, f := range in.Files {
		names = append(names, f.Name)
	}
	if slices.Contains(names, "link.jsonl") || !slices.Contains(names, "sessions.json") {
		t.Errorf("files = %v: symlinks are not counted, the store is", names)
	}

	// A store that does not parse cannot be planned on.
	os.WriteFile(storePath, []byte(`{"a": `), 0o644)
	st, _ = ReadSessionStoreFile(OS, storePath)
	if _, err := MaintenanceInput(OS, Agent{ID: "main", SessionsDir: sessions, StorePath: storePath}, st); err == nil ||
		!strings.Contains(err.Error(), "cannot be planned") {
		t.Errorf("corrupt store: %v", err)
	}
}

func null() any { return nil }

func TestChunkBytesMatchJSONStringify(t *testing.T) {
	// A store as JSON.stringify(store, null, 2) writes it: the chunks sum to
	// the file's size, as OpenClaw's measureStoreBytes counts it.
	dir := t.TempDir()
	data := "{\n  \"k1\": {\n    \"sessionId\": \"s1\",\n    \"updatedAt\": 1795262131168,\n    \"label\": \"é \\\"q\\\"\",\n    \"n\": [\n      1.5,\n      {}\n    ]\n  },\n  \"k2\": {\n    \"sessionId\": \"s2\"\n  }\n}"
	path := filepath.Join(dir, "sessions.json")
	os.WriteFile(path, []byte(data), 0o644)
	st, _ := ReadSessionStoreFile(OS, path)
	in, err := MaintenanceInput(OS, Agent{ID: "main", SessionsDir: dir, StorePath: path}, st)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []int64
	for _, r := range in.Rows {
		chunks = append(chunks, r.ChunkBytes)
	}
	if got := model.StoreBytes(chunks); got != int64(len(data)) {
		t.Errorf("StoreBytes = %d, file has %d bytes", got, len(data))
	}
}

func TestLedgerFiles(t *testing.T) {
	vault := t.TempDir()
	for _, rel := range []string{
		"ledger/observations/2026/10/01.md", "ledger/observations/2026/10/32.md", "ledger/observations/2026/13/01.md",
		"ledger/observations/26/10/01.md", "ledger/observations/2026/10/notes.md",
		"ledger/archive/observations/2026/09/30.md", "observations/2026-10-01.md", "observations/2026-10-02.md",
		"observations/2026-10-02.emoji-backup.md", "observations/README.md",
	} {
		p := filepath.Join(vault, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("## x\n"), 0o644)
	}
	os.Symlink(filepath.Join(vault, "observations/2026-10-02.md"), filepath.Join(vault, "observations/2026-10-03.md"))
	files, err := LedgerFiles(OS, vault)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, string(f.Location)+" "+f.Date+" "+f.Rel)
	}
	slices.Sort(got)
	want := []string{
		"archive 2026-09-30 ledger/archive/observations/2026/09/30.md",
		"ledger 2026-10-01 ledger/observations/2026/10/01.md",
		"legacy 2026-10-01 observations/2026-10-01.md",
		"legacy 2026-10-02 observations/2026-10-02.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("LedgerFiles = %q\nwant %q", got, want)
	}
}

func TestRetentionLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	lines := []string{
		`{"type":"session","version":3,"id":"x","timestamp":"2026-11-01T00:00:00.000Z","cwd":"/"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-01T00:00:01.000Z","message":{"role":"user","content":"Heartbeat poll","timestamp":1}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}],"timestamp":2}}`,
		`not json`,
		`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-11-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":" **NO_REPLY** "}],"timestamp":3}}`,
		`{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-11-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t","name":"read","arguments":{"text":"x"}}],"timestamp":4}}`,
		`{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-11-01T00:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"timestamp":5}}`,
	}
	data := strings.Join(lines, "\n") + "\r\n" + `{"type":"message","id":"a6","par`
	os.WriteFile(path, []byte(data), 0o644)
	got, size, err := RetentionLines(context.Background(), OS, path, nil)
	if err != nil || size != int64(len(data)) || len(got) != 8 {
		t.Fatalf("%d lines, size %d, %v", len(got), size, err)
	}
	kinds := []model.LineKind{model.LineHeader, model.LineEntry, model.LineEntry, model.LineOther, model.LineEntry, model.LineEntry, model.LineEntry, model.LineOther}
	replies := []model.ReplyKind{0, 0, model.ReplySilent, 0, model.ReplySilent, model.ReplyNone, model.ReplyText, 0}
	var total int64
	for i, l := range got {
		if l.Kind != kinds[i] || l.Reply != replies[i] {
			t.Errorf("line %d: kind %d reply %d, want %d %d", i+1, l.Kind, l.Reply, kinds[i], replies[i])
		}
		total += l.Span
	}
	if total != size || got[1].TimeMs == model.NoTime {
		t.Errorf("spans sum to %d of %d; time %d", total, size, got[1].TimeMs)
	}
}

// FuzzParseOpenClawSettings: any config parses or fails with an error that
// names the file; never a panic.
func FuzzParseOpenClawSettings(f *testing.F) {
	f.Add([]byte(`{"session":{"maintenance":{"pruneAfter":"30d","maxEntries":500,"resetArchiveRetention":false}}}`))
	f.Add([]byte(`{"cron":{"sessionRetention":false,"enabled":false},"agents":{"list":[{"id":"w","model":{"primary":"a/b"}}]}}`))
	f.Add([]byte(`{"session":{"maintenance":{"maxEntries":-1e999}}}`))
	f.Add([]byte(`/* c */ {"session":{"maintenance":{"mode":"warn",}},}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := &OpenClawSettings{Path: "/x/openclaw.json", AgentModels: map[string]string{}}
		if err := parseOpenClawSettings(out, data); err != nil && !strings.Contains(err.Error(), "/x/openclaw.json") {
			t.Fatalf("error without the file: %v", err)
		}
	})
}

// FuzzClassifyReply: any line classifies without panicking, and a line
// without a silent token is never silent.
func FuzzClassifyReply(f *testing.F) {
	f.Add([]byte(`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}]}}`))
	f.Add([]byte(`{"message":{"content":"NO_REPLY"}}`))
	f.Add([]byte(`{"message":{"content":[{"type":"text","text":"\u004eO_REPLY"}]}}`))
	f.Add([]byte(`{"message":`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r := classifyReply(line)
		if r == model.ReplySilent && !strings.Contains(string(line), "HEARTBEAT_OK") && !strings.Contains(string(line), "NO_REPLY") &&
			!strings.Contains(string(line), `\u`) {
			t.Fatalf("silent without a token: %q", line)
		}
	})
}

// FuzzReadManifest: any manifest file reads or fails with a sentence.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"version":1,"tool":"clawvault-tui","status":"applied","moves":[{"from":"/a","to":"/b","sizeBytes":1}]}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`[]`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "manifest.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Skip()
		}
		m, _, err := ReadManifest(OS, path)
		if err == nil && (m == nil || m.Version != model.ManifestVersion) {
			t.Fatalf("read %+v from %q", m, data)
		}
	})
}

// A planted sparse sessions.json of gigabytes is refused by its size, not
// read into memory, and left as it was.
func TestReadSessionStoreFileRefusesAHugeFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sessions.json")
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 4<<30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	_, err := ReadSessionStoreFile(OS, path)
	if err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Fatalf("err = %v, want a refusal by size", err)
	}
	if fi, _ := os.Stat(path); fi.Size() != 4<<30 {
		t.Errorf("the file changed size to %d", fi.Size())
	}
}
