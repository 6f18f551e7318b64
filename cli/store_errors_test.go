package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A store that cannot be read (here damaged: not a database) hides its
// sessions: status, observe (dry run and sweep) and tree name its problem,
// list it in their errors and exit 1; the other agents are still read.
func TestUnreadableStoreIsAnError(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	state, vault := filepath.Join(root, "state"), filepath.Join(root, "vault")
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(state, "agents", "main", "sessions", "sessions.json"), "{}\n")
	write(filepath.Join(state, "agents", "ops", "agent", "openclaw-agent.sqlite"), strings.Repeat("not a database ", 400))
	write(filepath.Join(vault, ".clawvault.json"), `{"name":"v"}`+"\n")
	flags := []string{"--state-dir", state, "-v", vault}
	const problem = "agent ops: its SQLite-era store"
	for _, args := range [][]string{{"status"}, {"status", "--json"}, {"observe", "--dry-run"}, {"observe", "--dry-run", "--json"}, {"observe", "--json"}, {"tree", "agent:ops:main"}, {"space"}, {"space", "--json"}} {
		out, errOut, code := runCLI(t, append(args, flags...)...)
		if code != 1 || !strings.Contains(errOut, problem) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		if strings.HasSuffix(args[len(args)-1], "--json") {
			var doc struct {
				Errors []string `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0], problem) {
				t.Errorf("%v: errors %q (%v)", args, doc.Errors, err)
			}
		}
	}
}

// A broken openclaw.json is the same warning on every command: status
// says it in its header, the others on stderr; none fails for it.
func TestBrokenOpenClawJSONWarnsEverywhere(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	state, vault := filepath.Join(root, "state"), filepath.Join(root, "vault")
	for path, data := range map[string]string{
		filepath.Join(state, "agents", "main", "sessions", "sessions.json"): "{}\n",
		filepath.Join(state, "openclaw.json"):                               "{ broken",
		filepath.Join(vault, ".clawvault.json"):                             `{"name":"v"}` + "\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const warning = "openclaw.json does not parse"
	flags := []string{"--state-dir", state, "-v", vault}
	for _, args := range [][]string{{"observe", "--dry-run"}, {"observe"}, {"observe", "--json"}, {"retention"}, {"tree", "nothing-here"}} {
		_, errOut, _ := runCLI(t, append(args, flags...)...)
		if strings.Count(errOut, "Warning: ") != 1 || !strings.Contains(errOut, warning) {
			t.Errorf("%v: stderr %q", args, errOut)
		}
	}
	out, errOut, code := runCLI(t, append([]string{"status"}, flags...)...)
	if code != 0 || !strings.Contains(out, "Warning:   "+"") || !strings.Contains(out, warning) || strings.Contains(errOut, warning) {
		t.Errorf("status: exit %d, %q, stderr %q", code, out, errOut)
	}
}
