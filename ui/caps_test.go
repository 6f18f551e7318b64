package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// A session whose role forbids a write (serve) shows it disabled with the
// reason, and the write never happens.
func TestForbiddenWritesAreShownDisabled(t *testing.T) {
	ws, _ := memoryWorkspace(t)
	swept := false
	runners := JobRunners{Sweep: func(context.Context, *store.Snapshot, []observer.Candidate, observer.ProgressFunc) (JobResult, error) {
		swept = true
		return nil, nil
	}}
	why := "needs the curate role; this key has read"
	a := newAppOn(t, ws, 100, 30, Options{Jobs: runners, Caps: Capabilities{Save: why, Promote: why, Sweep: "needs the operate role; this key has read"}})
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")

	press(t, a, "5")
	if v := viewText(a); !strings.Contains(v, "S sweep (needs the operate role; this key has read)") {
		t.Errorf("the Jobs screen does not show the sweep disabled with its reason:\n%s", v)
	}
	press(t, a, "S")
	if a.confirm != nil || len(a.jobs.jobs) != 0 || swept || !strings.Contains(a.status, "sweep: needs the operate role") {
		t.Errorf("S: confirm %v, %d jobs, status %q", a.confirm != nil, len(a.jobs.jobs), a.status)
	}

	drive(t, a, func() tea.Msg { return openEditorMsg{path: memory, line: 1} })
	if a.editor == nil {
		t.Fatalf("the editor did not open to read: %q", a.status)
	}
	typeText(t, a, "x")
	press(t, a, "ctrl+s")
	if readText(t, memory) != fixtureMemory || !strings.Contains(a.editor.note, "not saved: "+why) {
		t.Errorf("a save without the role: note %q", a.editor.note)
	}

	a = newAppOn(t, ws, 100, 30, Options{Caps: Capabilities{Promote: why}})
	openVaultFile(t, a, filepath.Join(ws.Vault, "ledger", "observations", "2026", "11", "20.md"))
	press(t, a, "G", "p")
	if a.picker != nil || !strings.Contains(a.status, "promote: "+why) {
		t.Errorf("p without the role: picker %v, status %q", a.picker != nil, a.status)
	}
}

// Over SSH the external editor key opens the built-in editor, and each
// write goes through what Caps.Writes gives (the audit).
func TestBuiltInEditorAndAuditedWrites(t *testing.T) {
	ws, _ := memoryWorkspace(t)
	var actions []string
	var outcomes []error
	caps := Capabilities{ExternalEditor: "no terminal over SSH", Writes: func(action string) (store.WriteFS, func(error)) {
		actions = append(actions, action)
		return store.OSWriter, func(err error) { outcomes = append(outcomes, err) }
	}}
	a := newAppOn(t, ws, 100, 30, Options{Caps: caps})
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")
	drive(t, a, openExternal(a.c, memory, 2))
	if a.editor == nil || a.editor.path != memory {
		t.Fatalf("E did not open the built-in editor: %q", a.status)
	}
	typeText(t, a, "x")
	press(t, a, "ctrl+s")
	if strings.Join(actions, ",") != "save" || len(outcomes) != 1 || outcomes[0] != nil {
		t.Errorf("writes: %v, outcomes %v", actions, outcomes)
	}
}
