package ui

import (
	"strings"
	"testing"
)

// The workspace's warnings (a broken openclaw.json) are on the status
// line when the TUI opens, as every command says them.
func TestWorkspaceWarningsOnTheStatusLine(t *testing.T) {
	ws, _ := demoWorkspace(t)
	copied := *ws
	copied.Warnings = []string{"/s/openclaw.json does not parse (invalid character); using OpenClaw's default paths"}
	a := newAppOn(t, &copied, 120, 35, Options{})
	if !strings.Contains(a.View().Content, "Warning: /s/openclaw.json does not parse") {
		t.Errorf("the view does not say the warning:\n%s", a.View().Content)
	}
}
