package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"clawvault-tui/model"
)

func mkfile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func env(vars map[string]string, home, cwd string) Env {
	return Env{Getenv: func(k string) string { return vars[k] }, Home: home, Cwd: cwd}
}

func TestResolveStateDir(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tests := []struct {
		name   string
		vars   map[string]string
		opt    LocateOptions
		mkdirs []string
		want   string
	}{
		{"default when nothing exists", nil, LocateOptions{}, nil, filepath.Join(home, ".openclaw")},
		{"legacy ~/.clawdbot when only it exists", nil, LocateOptions{}, []string{".clawdbot"}, filepath.Join(home, ".clawdbot")},
		{"~/.openclaw wins over legacy", nil, LocateOptions{}, []string{".clawdbot", ".openclaw"}, filepath.Join(home, ".openclaw")},
		{"OPENCLAW_STATE_DIR", map[string]string{"OPENCLAW_STATE_DIR": "/srv/oc"}, LocateOptions{}, nil, "/srv/oc"},
		{"OPENCLAW_HOME moves home", map[string]string{"OPENCLAW_HOME": "/opt/u"}, LocateOptions{}, nil, "/opt/u/.openclaw"},
		{"--profile", map[string]string{"OPENCLAW_STATE_DIR": "/srv/oc"}, LocateOptions{Profile: "work"}, nil, filepath.Join(home, ".openclaw-work")},
		{"--state-dir beats all", map[string]string{"OPENCLAW_STATE_DIR": "/srv/oc"}, LocateOptions{StateDir: "~/x", Profile: "work"}, nil, filepath.Join(home, "x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := filepath.Join(home, strings.ReplaceAll(tt.name, " ", "_"))
			for _, d := range tt.mkdirs {
				os.MkdirAll(filepath.Join(h, d), 0o755)
			}
			want := strings.Replace(tt.want, home, h, 1)
			if got, _ := ResolveStateDir(env(tt.vars, h, "/"), tt.opt); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// workspaceFixture writes a small state dir and vault.
func workspaceFixture(t *testing.T) (state, vault string) {
	root := t.TempDir()
	state, vault = filepath.Join(root, "state"), filepath.Join(root, "vault")
	sessions := filepath.Join(state, "agents", "main", "sessions")
	mkfile(t, filepath.Join(sessions, "a.jsonl"), strings.Repeat("x", 60000)+"\n")
	mkfile(t, filepath.Join(sessions, "b.jsonl"), "small\n")
	mkfile(t, filepath.Join(sessions, "orphan.jsonl"), "o\n")
	mkfile(t, filepath.Join(sessions, "sessions.json"), `{
  "agent:main:main": {"sessionId": "a", "updatedAt": 2, "sessionFile": "/elsewhere/agents/main/sessions/a.jsonl"},
  "agent:main:direct:x": {"sessionId": "b", "updatedAt": 1}
}`)
	mkfile(t, filepath.Join(state, "agents", "ops", "agent", "openclaw-agent.sqlite"), "SQLite format 3\x00")
	mkfile(t, filepath.Join(state, "agents", "work", "sessions", "sessions.json"), `{not json`)
	mkfile(t, filepath.Join(state, "agents", "Bad Name", "sessions", "x.jsonl"), "")
	mkfile(t, filepath.Join(state, "openclaw.json"), `{
  // JSON5: comments and trailing commas
  "agents": {"list": [{"id": "main", "default": true}, {"id": "work", "workspace": "/w/work",},]},
}`)
	mkfile(t, filepath.Join(vault, ".clawvault.json"), `{"name":"v"}`)
	mkfile(t, CursorFile(vault), `{"b": {"lastObservedOffset": 6, "lastObservedAt": "2026-11-21T00:00:00.000Z", "sessionKey": "agent:main:direct:x", "lastFileSize": 6}}`+"\n")
	return state, vault
}

func TestLocate(t *testing.T) {
	t.Parallel()
	state, vault := workspaceFixture(t)
	ws, err := Locate(env(nil, "/nohome", filepath.Join(vault, "deep")), LocateOptions{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range ws.Agents {
		ids = append(ids, a.ID)
	}
	if strings.Join(ids, ",") != "main,ops,work" {
		t.Errorf("agents = %v", ids)
	}
	if ws.Agents[0].Workspace != filepath.Join(state, "workspace") || ws.Agents[2].Workspace != "/w/work" {
		t.Errorf("workspaces: %s, %s", ws.Agents[0].Workspace, ws.Agents[2].Workspace)
	}
	if ws.Agents[1].SQLitePath == "" {
		t.Error("the ops agent's SQLite store is not detected")
	}
	if ws.Vault != vault {
		t.Errorf("vault = %q: walking up from the working folder should find it", ws.Vault)
	}
	if len(ws.Warnings) != 0 {
		t.Errorf("warnings: %v", ws.Warnings)
	}

	if _, err := Locate(env(nil, "/nohome", "/"), LocateOptions{StateDir: state, Agent: "nope"}); err == nil || !strings.Contains(err.Error(), "main, ops, work") {
		t.Errorf("an unknown --agent names the agents there are: %v", err)
	}
	if _, err := Locate(env(nil, "/nohome", "/"), LocateOptions{StateDir: filepath.Join(state, "missing")}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing --state-dir: %v", err)
	}
	ws, err = Locate(env(map[string]string{"OPENCLAW_AGENT_ID": "work", "CLAWVAULT_PATH": vault}, "/nohome", "/"), LocateOptions{SessionsDir: filepath.Join(state, "agents", "main", "sessions")})
	if err != nil || len(ws.Agents) != 1 || ws.Agents[0].ID != "work" || ws.Vault != vault {
		t.Errorf("--sessions-dir: %+v %v", ws, err)
	}
}

// countingFS refuses to read transcript content and counts what was read.
type countingFS struct {
	FS
	mu    sync.Mutex
	reads []string
}

func (c *countingFS) note(name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, name)
	if model.ClassifyFileName(filepath.Base(name)).Kind.IsTranscript() || strings.HasSuffix(name, ".sqlite") {
		return errors.New("status must not read transcript content: " + name)
	}
	return nil
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	if err := c.note(name); err != nil {
		return nil, err
	}
	return c.FS.ReadFile(name)
}

func (c *countingFS) Open(name string) (File, error) {
	if err := c.note(name); err != nil {
		return nil, err
	}
	return c.FS.Open(name)
}

func TestScanReadsNoTranscriptContent(t *testing.T) {
	t.Parallel()
	state, vault := workspaceFixture(t)
	ws, err := Locate(env(nil, "/nohome", "/"), LocateOptions{StateDir: state, Vault: vault})
	if err != nil {
		t.Fatal(err)
	}
	fsys := &countingFS{FS: OS}
	snap, err := Scan(context.Background(), fsys, ws, ScanOptions{Now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fsys.reads {
		if !strings.HasSuffix(r, "sessions.json") && !strings.HasSuffix(r, "observe-cursors.json") && !strings.HasSuffix(r, model.SeqCursorFileName) {
			t.Errorf("read %s", r)
		}
	}
	byKey := map[string]model.SessionRow{}
	for _, r := range snap.Rows {
		byKey[r.Agent+" "+r.DisplayKey()] = r
	}
	main := byKey["main agent:main:main"]
	if !main.Exists || main.Size != 60001 || !main.Candidate || !main.Has(model.CodeNoCursor) {
		t.Errorf("a sessionFile from another machine is re-rooted into the sessions folder: %+v", main)
	}
	if b := byKey["main agent:main:direct:x"]; b.Cursor == nil || b.Pending() != 0 {
		t.Errorf("b: %+v", b)
	}
	if o := byKey["main agent:main:unknown:orphan"]; o.Origin != model.OriginScan || !o.Discovered {
		t.Errorf("orphan: %+v", o)
	}
	if len(snap.Problems) != 1 || !strings.Contains(snap.Problems[0], "agent work") {
		t.Errorf("a corrupt sessions.json is reported, not fatal: %v", snap.Problems)
	}
	var sqliteRow bool
	for _, r := range snap.Rows {
		sqliteRow = sqliteRow || r.Agent == "ops" && r.Origin == model.OriginSQLite && r.Has(model.CodeSQLiteStore)
	}
	if !sqliteRow {
		t.Error("the ops agent's SQLite store has no row")
	}
}

func TestLoadCursors(t *testing.T) {
	t.Parallel()
	vault := t.TempDir()
	if st := LoadCursors(OS, vault); !st.Missing || st.Store.Len() != 0 {
		t.Errorf("missing: %+v", st)
	}
	mkfile(t, CursorFile(vault), `{"a": {"lastObservedOffset": 1, `)
	if st := LoadCursors(OS, vault); st.Corrupt == "" || st.Store.Len() != 0 {
		t.Errorf("corrupt: %+v", st)
	}
	mkfile(t, CursorFile(vault), `{"a": {"lastObservedOffset": -1, "lastObservedAt": "t", "sessionKey": "k", "lastFileSize": 1}}`)
	if st := LoadCursors(OS, vault); st.Problems["a"] == "" {
		t.Errorf("invalid: %+v", st)
	}
	// A file that cannot be read is not corrupt: its content is unknown.
	if err := os.Remove(CursorFile(vault)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(CursorFile(vault), 0o755); err != nil {
		t.Fatal(err)
	}
	st := LoadCursors(OS, vault)
	if st.Corrupt != "" || st.ReadError == nil || !strings.Contains(st.ReadError.Error(), "is a directory") || !strings.Contains(st.ReadError.Error(), CursorFile(vault)) {
		t.Errorf("a directory: corrupt %q, read error %v", st.Corrupt, st.ReadError)
	}
}

// Writing over a directory says so (it was "rename: file exists").
func TestWriteFileAtomicOverADirectory(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteFileAtomic(OSWriter, p, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("err = %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestSaveCursorsKeepsModeAndFormat(t *testing.T) {
	t.Parallel()
	vault := t.TempDir()
	mkfile(t, CursorFile(vault), "{}\n")
	os.Chmod(CursorFile(vault), 0o600)
	s := model.NewCursorStore()
	s.Set("a", model.Cursor{LastObservedOffset: 5, LastObservedAt: "2026-11-21T00:00:00.000Z", SessionKey: "k", LastFileSize: 5})
	if err := SaveCursors(OSWriter, vault, s); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(CursorFile(vault))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(CursorFile(vault))
	if string(data) != string(model.MarshalCursorStore(s)) {
		t.Errorf("content = %s", data)
	}
	entries, _ := os.ReadDir(filepath.Dir(CursorFile(vault)))
	if len(entries) != 1 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

// failingWriter runs out of disk after n bytes.
type failingWriter struct {
	WriteFS
	budget int
}

type failingTemp struct {
	TempFile
	w *failingWriter
}

func (f *failingWriter) CreateTemp(dir, pattern string) (TempFile, error) {
	t, err := f.WriteFS.CreateTemp(dir, pattern)
	return &failingTemp{t, f}, err
}

func (t *failingTemp) Write(p []byte) (int, error) {
	if len(p) > t.w.budget {
		n, _ := t.TempFile.Write(p[:t.w.budget])
		return n, errors.New("no space left on device")
	}
	t.w.budget -= len(p)
	return t.TempFile.Write(p)
}

func TestWriteFileAtomicDiskFull(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	mkfile(t, path, "the old content\n")
	err := WriteFileAtomic(&failingWriter{WriteFS: OSWriter, budget: 4}, path, []byte("a much longer new content\n"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "no space") {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "the old content\n" {
		t.Errorf("the old file was damaged: %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("a torn temp file was left: %d entries", len(entries))
	}
}

func TestListSessionsDirFollowsSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "real", "x.jsonl"), "12345")
	os.Symlink(filepath.Join(dir, "real", "x.jsonl"), filepath.Join(dir, "link.jsonl"))
	os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling.jsonl"))
	files, err := ListSessionsDir(context.Background(), OS, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name != "link.jsonl" || files[0].Size != 5 || !files[0].IsFile {
		t.Errorf("files = %+v", files)
	}
	if f, err := ListSessionsDir(context.Background(), OS, filepath.Join(dir, "missing")); err != nil || f != nil {
		t.Errorf("a missing folder is empty: %v %v", f, err)
	}
}

func TestCheckVault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		path, want string
	}{
		{"", "no ClawVault vault found"},
		{filepath.Join(dir, "missing"), "does not exist"},
		{dir, "no .clawvault.json"},
	} {
		if err := CheckVault(tt.path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckVault(%q) = %v", tt.path, err)
		}
	}
}

// A vault named by -v or $CLAWVAULT_PATH that cannot be used stops
// locating, naming where the path came from; one found by walking up is a
// vault by construction.
func TestLocateRefusesAVaultThatCannotBeUsed(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	os.MkdirAll(filepath.Join(state, "agents", "main", "sessions"), 0o755)
	notVault := t.TempDir()
	missing := filepath.Join(notVault, "missing")
	for _, tt := range []struct {
		name string
		vars map[string]string
		opt  LocateOptions
		want string
	}{
		{"-v missing", nil, LocateOptions{StateDir: state, Vault: missing}, "the vault " + missing + " (from --vault) does not exist"},
		{"CLAWVAULT_PATH missing", map[string]string{"CLAWVAULT_PATH": missing}, LocateOptions{StateDir: state}, "the vault " + missing + " (from CLAWVAULT_PATH) does not exist"},
		{"-v not a vault", nil, LocateOptions{StateDir: state, Vault: notVault}, notVault + " (from --vault) is not a ClawVault vault"},
		{"--sessions-dir, -v missing", nil, LocateOptions{SessionsDir: filepath.Join(state, "agents", "main", "sessions"), Vault: missing}, "does not exist"},
	} {
		ws, err := Locate(env(tt.vars, "/nohome", "/"), tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
		if ws != nil {
			t.Errorf("%s: a workspace came back with the error", tt.name)
		}
	}
	vault := t.TempDir()
	mkfile(t, filepath.Join(vault, ".clawvault.json"), "{}")
	if ws, err := Locate(env(nil, "/nohome", "/"), LocateOptions{StateDir: state, Vault: vault}); err != nil || ws.Vault != vault {
		t.Errorf("a real vault: %v", err)
	}
}

func TestWorkspaceMemory(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	mkfile(t, filepath.Join(ws, "MEMORY.md"), "# Memory\n")
	mkfile(t, filepath.Join(ws, "memory.md"), "ignored: MEMORY.md wins\n")
	mkfile(t, filepath.Join(ws, "DREAMS.md"), "dreams\n")
	mkfile(t, filepath.Join(ws, "memory", "2026-11-20.md"), "day\n")
	mkfile(t, filepath.Join(ws, "memory", "projects", "northwind.md"), "nested\n")
	mkfile(t, filepath.Join(ws, "memory", "notes.txt"), "not markdown\n")
	mkfile(t, filepath.Join(t.TempDir(), "elsewhere.md"), "x")
	os.Symlink(filepath.Join(ws, "MEMORY.md"), filepath.Join(ws, "memory", "link.md"))
	files, err := WorkspaceMemory(OS, ws)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, fmt.Sprintf("%s daily=%v", f.Rel, f.Daily))
	}
	want := []string{"DREAMS.md daily=false", "MEMORY.md daily=false", "memory/2026-11-20.md daily=true", "memory/projects/northwind.md daily=false"}
	if !slices.Equal(got, want) {
		t.Errorf("memory = %v, want %v", got, want)
	}
	if files, err := WorkspaceMemory(OS, filepath.Join(ws, "missing")); err != nil || len(files) != 0 {
		t.Errorf("a missing workspace: %v %v", files, err)
	}
}
