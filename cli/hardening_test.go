package cli

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store"
)

// hostileCLI is a key that acts on a terminal: a title OSC ending in BEL,
// a screen clear, a newline that would split a row, and U+202E.
const hostileCLI = "\x1b]0;owned\x07\x1b[2Jevil\nrow\u202egnp"

// hostileState is a state dir whose one session has a hostile key and
// label, and a vault.
func hostileState(t *testing.T) (state, vault string) {
	t.Helper()
	root := t.TempDir()
	state, vault = filepath.Join(root, "state"), filepath.Join(root, "vault")
	sessions := filepath.Join(state, "agents", "main", "sessions")
	if err := os.MkdirAll(sessions, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-21T10:00:00.000Z","message":{"role":"user","content":"hi"}}` + "\n"
	os.WriteFile(filepath.Join(sessions, "s1.jsonl"), []byte(line), 0o644)
	rows, _ := json.Marshal(map[string]any{"agent:main:" + hostileCLI: map[string]any{"sessionId": "s1", "updatedAt": 1}})
	os.WriteFile(filepath.Join(sessions, "sessions.json"), rows, 0o644)
	os.MkdirAll(filepath.Join(vault, ".clawvault"), 0o755)
	os.WriteFile(filepath.Join(vault, ".clawvault.json"), []byte(`{"name":"v"}`), 0o644)
	return state, vault
}

// Human output escapes control and bidirectional characters from files;
// --json keeps them exact. Before, status printed the key raw.
func TestHumanOutputIsEscaped(t *testing.T) {
	t.Parallel()
	state, vault := hostileState(t)
	for _, args := range [][]string{{"status"}, {"status", "--deep"}, {"observe", "--dry-run", "--min-new", "1"}, {"tree", "s1"}} {
		stdout, stderr, code := runCLI(t, append(args, "--state-dir", state, "-v", vault)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		for _, bad := range []string{"\x1b", "\x07", "\u202e", "evil\nrow"} {
			if strings.Contains(stdout+stderr, bad) {
				t.Errorf("%v prints %q:\n%s", args, bad, stdout)
			}
		}
	}
	stdout, _, _ := runCLI(t, "status", "--json", "--state-dir", state, "-v", vault)
	var doc struct {
		Sessions []struct {
			SessionKey string `json:"sessionKey"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Sessions) == 0 || doc.Sessions[0].SessionKey != "agent:main:"+hostileCLI {
		t.Errorf("--json changed the key: %v %+v", err, doc.Sessions)
	}
}

// status --json gives a cursor's offset as the cursor file has it, 1e19
// included (it printed -9223372036854775808); the text says the file
// cannot be read rather than that it does not parse.
func TestStatusCursorFacts(t *testing.T) {
	t.Parallel()
	state, vault := hostileState(t)
	os.WriteFile(store.CursorFile(vault), []byte(`{"s1": {"lastObservedOffset": 1e19, "lastObservedAt": "2026-11-20T00:00:00.000Z", "sessionKey": "k", "lastFileSize": 5}}`), 0o644)
	stdout, _, _ := runCLI(t, "status", "--json", "--state-dir", state, "-v", vault)
	if !strings.Contains(stdout, `"cursorOffset": 10000000000000000000`) {
		t.Errorf("cursorOffset:\n%s", stdout)
	}
	os.Remove(store.CursorFile(vault))
	os.Mkdir(store.CursorFile(vault), 0o755)
	stdout, _, _ = runCLI(t, "status", "--state-dir", state, "-v", vault)
	if !strings.Contains(stdout, "cannot be read: is a directory") || strings.Contains(stdout, "does not parse") {
		t.Errorf("status:\n%s", stdout)
	}
}

// waitExit waits for a process to end, up to a generous deadline.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the command did not stop after the signal")
		return -1
	}
}

// pollFor waits until cond holds, up to a deadline.
func pollFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen", what)
		}
	}
}
