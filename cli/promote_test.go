package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"clawvault-tui/store/demo/demotest"
)

func TestPromote(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	memory := filepath.Join(state, "workspace", "MEMORY.md")
	before, err := os.ReadFile(memory)
	if err != nil {
		t.Fatal(err)
	}
	line := "- [lesson|c=0.80|i=0.80] 18:53 [cron] user: Restore drills every [[quarter]]."
	out, errOut, code := runCLI(t, "promote", "--state-dir", state, "-v", vault, "--section", "lessons", "--json", line)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		File, Section, Text string
		Line                int
		Added               bool
		Backup              string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	requireKeys(t, "promote --json", json.RawMessage(out), "file", "section", "line", "added", "text", "sectionCreated")
	after, _ := os.ReadFile(memory)
	if !res.Added || res.File != memory || res.Section != "Lessons" || res.Text != "Restore drills every quarter." ||
		strings.Count(string(after), "- Restore drills every quarter.\n") != 1 {
		t.Errorf("result %+v\n%s", res, after)
	}
	if b, err := os.ReadFile(res.Backup); err != nil || string(b) != string(before) {
		t.Errorf("the backup %s does not hold the previous version: %v", res.Backup, err)
	}
	// Idempotent: the same sentence again adds nothing, exit 0.
	out, _, code = runCLI(t, "promote", "--state-dir", state, "-v", vault, "--section", "Lessons", "restore drills every quarter")
	if again, _ := os.ReadFile(memory); code != 0 || string(again) != string(after) || !strings.Contains(out, "already in main's MEMORY.md at line "+strconv.Itoa(res.Line)) {
		t.Errorf("a second promote: exit %d, %q", code, out)
	}
	// A missing section is an error that names the sections; --create adds it.
	_, errOut, code = runCLI(t, "promote", "--state-dir", state, "-v", vault, "--section", "Decisions", "We ship on Fridays.")
	if code != 1 || !strings.Contains(errOut, `there is no section "Decisions"`) || !strings.Contains(errOut, `"Lessons"`) {
		t.Errorf("missing section: exit %d, %s", code, errOut)
	}
	out, _, code = runCLI(t, "promote", "--agent", "work", "--state-dir", state, "-v", vault, "--section", "Decisions", "--create", "We ship on Fridays.")
	work, _ := os.ReadFile(filepath.Join(state, "workspace-work", "MEMORY.md"))
	if code != 0 || !strings.HasSuffix(string(work), "## Decisions\n- We ship on Fridays.\n") || !strings.Contains(out, "in a new section") {
		t.Errorf("--create: exit %d, %q\n%s", code, out, work)
	}
}

func TestPromoteUsage(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"x"}, 2, "needs --section"},
		{[]string{"--section", "Lessons"}, 2, "needs the text"},
		{[]string{"--all-agents", "--section", "Lessons", "x"}, 2, "one agent's MEMORY.md"},
		{[]string{"--agent", "nobody", "--section", "Lessons", "x"}, 1, "nobody"},
	} {
		args := append([]string{"promote", "--state-dir", state, "-v", vault}, tc.args...)
		_, errOut, code := runCLI(t, args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %s", tc.args, code, errOut)
		}
	}
}

// A copy of the demo edits its own memory: its openclaw.json names no
// workspace, so every agent's resolves inside the copy's state dir.
func TestACopiedDemoEditsItsOwnMemory(t *testing.T) {
	t.Parallel()
	orig := demotest.Shared(t, conformanceSpec(t)).StateDir
	state := filepath.Join(t.TempDir(), "copy", "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	// What promote reads: the config, the agents' folders, the workspaces.
	if data, err := os.ReadFile(filepath.Join(orig, "openclaw.json")); err != nil || os.WriteFile(filepath.Join(state, "openclaw.json"), data, 0o644) != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"main", "work", "ops"} {
		os.MkdirAll(filepath.Join(state, "agents", agent, "sessions"), 0o755)
	}
	for _, ws := range []string{"workspace", "workspace-work", "workspace-ops"} {
		if err := os.CopyFS(filepath.Join(state, ws), os.DirFS(filepath.Join(orig, ws))); err != nil {
			t.Fatal(err)
		}
	}
	for ws, agent := range map[string]string{"workspace": "main", "workspace-work": "work", "workspace-ops": "ops"} {
		before, _ := os.ReadFile(filepath.Join(orig, ws, "MEMORY.md"))
		_, errOut, code := runCLI(t, "promote", "--state-dir", state, "--agent", agent, "--section", "Copies", "--create", "Only the copy has this.")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", agent, code, errOut)
		}
		if after, _ := os.ReadFile(filepath.Join(orig, ws, "MEMORY.md")); string(after) != string(before) {
			t.Errorf("promote in the copy changed the original's %s/MEMORY.md", ws)
		}
		if got, _ := os.ReadFile(filepath.Join(state, ws, "MEMORY.md")); !strings.HasSuffix(string(got), "## Copies\n- Only the copy has this.\n") {
			t.Errorf("the copy's %s/MEMORY.md:\n%s", ws, got)
		}
	}
}
