package observer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// guardFS fails the test on any read of a path under one of the guarded
// folders: the transcripts that must never be opened.
type guardFS struct {
	store.FS
	t       *testing.T
	guarded []string
}

func (g guardFS) check(name string) {
	for _, dir := range g.guarded {
		if strings.HasPrefix(name, dir) {
			g.t.Errorf("read %s", name)
		}
	}
}

func (g guardFS) Open(name string) (store.File, error) {
	g.check(name)
	return g.FS.Open(name)
}

func (g guardFS) ReadFile(name string) ([]byte, error) {
	g.check(name)
	return g.FS.ReadFile(name)
}

// A transcript sessions.json names outside the state dir (an absolute
// sessionFile, a relative one climbing out), or a link in the sessions
// folder that leads out: status says outside-state-dir and nothing opens
// it, not status --deep, not a sweep. One inside the state dir but not in
// the sessions folder is read as before. Before, tree and status --deep
// opened /etc/shadow when sessions.json said so.
func TestTranscriptsOutsideTheStateDirAreNeverRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	secret := filepath.Join(t.TempDir(), "secret")
	msgs := lines(msgLine("a", "user", "We decided to keep this outside."), msgLine("b", "user", "Lesson learned: never read it."))
	f.write(filepath.Join(secret, "shadow.jsonl"), msgs)
	f.write(filepath.Join(secret, "linked.jsonl"), msgs)
	f.write(filepath.Join(f.state, "agents", "main", "old-sessions", "kept.jsonl"), msgs)
	if err := os.Symlink(filepath.Join(secret, "linked.jsonl"), filepath.Join(f.sessions, "linked.jsonl")); err != nil {
		t.Fatal(err)
	}
	climb, err := filepath.Rel(f.sessions, filepath.Join(secret, "shadow.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]any{
		"agent:main:abs":    map[string]any{"sessionId": "abs", "updatedAt": 1, "sessionFile": filepath.Join(secret, "shadow.jsonl")},
		"agent:main:climb":  map[string]any{"sessionId": "climb", "updatedAt": 2, "sessionFile": climb},
		"agent:main:linked": map[string]any{"sessionId": "linked", "updatedAt": 3},
		"agent:main:kept":   map[string]any{"sessionId": "kept", "updatedAt": 4, "sessionFile": filepath.Join(f.state, "agents", "main", "old-sessions", "kept.jsonl")},
	}
	data, _ := json.Marshal(rows)
	f.write(filepath.Join(f.sessions, "sessions.json"), string(data))

	fsys := guardFS{FS: store.OS, t: t, guarded: []string{secret}}
	snap, err := store.Scan(context.Background(), fsys, f.workspace(), store.ScanOptions{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if err := Deepen(context.Background(), fsys, snap, nil); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]model.SessionRow{}
	for _, r := range snap.Rows {
		byKey[r.DisplayKey()] = r
	}
	for _, key := range []string{"agent:main:abs", "agent:main:climb", "agent:main:linked"} {
		r := byKey[key]
		if !r.Has(model.CodeOutsideStateDir) || r.Has(model.CodeMissingFile) || r.Candidate || r.Tail != nil {
			t.Errorf("%s: %+v", key, r.Diagnosis)
		}
	}
	if r := byKey["agent:main:kept"]; r.Has(model.CodeOutsideStateDir) || !r.Exists || r.Tail == nil {
		t.Errorf("kept: exists %v, %+v", r.Exists, r.Diagnosis)
	}

	rep, err := f.sweep(context.Background(), SweepOptions{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rep.Observed {
		if o.SessionID == "linked" {
			t.Errorf("observed %s", o.File)
		}
	}
}
