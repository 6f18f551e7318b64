package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

// A JSONL transcript left beside the store (the demo's ops main session,
// written back out as its events) lists under the session key the store
// gives it, and its detail says the verdict of comparing it with the store.
func TestLeftoverJSONLInTheDetailPane(t *testing.T) {
	t.Parallel()
	man := demotest.Copy(t, demotest.Spec{Options: demo.ScaleOptions(1, 1, fixedNow), PathLength: 72})
	ctx := context.Background()
	db, err := agentdb.Open(ctx, man.SQLitePath)
	if err != nil {
		t.Fatal(err)
	}
	var jsonl []byte
	err = db.Events(ctx, man.SQLiteMain.SessionID, -1, 0, func(ev agentdb.Event) bool {
		jsonl = append(append(jsonl, ev.Text...), '\n')
		return true
	})
	db.Close()
	if err != nil || len(jsonl) == 0 {
		t.Fatalf("the session's events: %d bytes, %v", len(jsonl), err)
	}
	left := filepath.Join(man.StateDir, "agents", "ops", "sessions", man.SQLiteMain.SessionID+".jsonl")
	if err := os.WriteFile(left, jsonl, 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: "/nonexistent", Cwd: "/"},
		store.LocateOptions{StateDir: man.StateDir, Vault: man.VaultDir})
	if err != nil {
		t.Fatal(err)
	}
	a := newAppOn(t, ws, 120, 40, Options{})
	if !a.sessions.Select(left) {
		t.Fatal("the leftover JSONL is not listed")
	}
	r, _ := a.sessions.Selected()
	if r.DisplayKey() != man.SQLiteMain.Key || r.Candidate {
		t.Errorf("the leftover lists as %s (candidate %v), want %s and no candidate", r.DisplayKey(), r.Candidate, man.SQLiteMain.Key)
	}
	v := viewText(a)
	for _, want := range []string{"import-verified", "of this file are in", "openclaw-agent.sqlite's session " + man.SQLiteMain.Key} {
		if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
			t.Errorf("the detail pane lacks %q:\n%s", want, v)
		}
	}
}
