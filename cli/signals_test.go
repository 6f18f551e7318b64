//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/store"
)

// lockedBuffer is a command's stderr, read while the command runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// interrupt starts the command, sends it sig once ready holds, and
// returns its exit code and stderr. It fails the test when the command
// did not stop by itself: the backstop ended it (given 5 s here, not the
// usual second), which a command that checks its context never needs.
func interrupt(t *testing.T, cmd *exec.Cmd, sig os.Signal, ready func(stderr string) bool) (int, string) {
	t.Helper()
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if cmd.Env == nil {
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir())
	}
	// Room for a loaded machine: a second was missed at a load of 10 on
	// two cores.
	cmd.Env = append(cmd.Env, "CLAWVAULT_TUI_SIGNAL_GRACE=5s")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pollFor(t, "the command's start", func() bool { return ready(stderr.String()) })
	cmd.Process.Signal(sig)
	sent := time.Now()
	code := waitExit(t, cmd)
	t.Logf("stopped %v after the signal, exit %d", time.Since(sent).Round(time.Millisecond), code)
	if strings.Contains(stderr.String(), forcedExit) {
		t.Errorf("the backstop ended it: it did not stop by itself after %v\n%s", sig, stderr.String())
	}
	return code, stderr.String()
}

// bigTranscript writes a transcript of n distinct user messages to the
// state dir's main agent: enough to keep a sweep or an index busy.
func bigTranscript(t *testing.T, state string, n int) {
	t.Helper()
	f, err := os.Create(filepath.Join(state, "agents", "main", "sessions", "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := range n {
		b, _ := json.Marshal(map[string]any{"type": "message", "id": i, "parentId": nil, "timestamp": "2026-11-21T10:00:00.000Z",
			"message": map[string]any{"role": "user", "content": "We decided to use option " + strings.Repeat("x", i%97) + " for case " + time.Duration(i).String()}})
		f.Write(append(b, '\n'))
	}
}

// hasOpen reports whether the process has the file open (Linux's /proc).
func hasOpen(pid int, path string) bool {
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}

// SIGINT and SIGTERM stop every command at its next check, within a
// second and without the backstop, and leave only complete files: a sweep
// (SIGTERM, mid-read) exits 130 with no temp file and cursors that match
// the ledger; the demo generator (SIGINT) stops between turns of a
// conversation and empties its folder; a search indexing transcripts stops
// between lines. Before, the demo generator and transcript indexing ran on
// until the backstop ended the process, and a sweep's last commit could
// hold hundreds of files.
func TestSignalsStopCommands(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := builtBinary(t)
	t.Run("observe, SIGTERM", func(t *testing.T) {
		t.Parallel()
		state, vault := hostileState(t)
		bigTranscript(t, state, 150000)
		cmd := exec.Command(bin, "observe", "--state-dir", state, "-v", vault, "--min-new", "1")
		locked := func(string) bool { _, err := os.Stat(store.SweepLockFile(vault)); return err == nil }
		if code, _ := interrupt(t, cmd, syscall.SIGTERM, locked); code != 130 && code != 0 {
			t.Errorf("exit %d", code)
		}
		filepath.WalkDir(vault, func(p string, d os.DirEntry, err error) error {
			if _, ours := store.TempOwner(filepath.Base(p)); ours || strings.Contains(p, "journal") || strings.HasSuffix(p, ".lock") {
				t.Errorf("left behind: %s", p)
			}
			return nil
		})
	})
	t.Run("search --transcripts, SIGINT", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("reads /proc to see the transcript being indexed")
		}
		t.Parallel()
		state, vault := hostileState(t)
		bigTranscript(t, state, 400000)
		cmd := exec.Command(bin, "search", "--transcripts", "decided", "--state-dir", state, "-v", vault)
		transcript := filepath.Join(state, "agents", "main", "sessions", "s1.jsonl")
		indexing := func(string) bool { return hasOpen(cmd.Process.Pid, transcript) }
		if code, stderr := interrupt(t, cmd, os.Interrupt, indexing); code != 130 {
			t.Errorf("exit %d\n%s", code, stderr)
		}
	})
	t.Run("demo, SIGINT", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "demo")
		cmd := exec.Command(bin, "demo", dir, "--scale", "100")
		started := func(string) bool { e, _ := os.ReadDir(dir); return len(e) > 0 }
		if code, stderr := interrupt(t, cmd, os.Interrupt, started); code != 130 {
			t.Errorf("exit %d\n%s", code, stderr)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("the folder keeps %d entries", len(entries))
		}
	})
}
