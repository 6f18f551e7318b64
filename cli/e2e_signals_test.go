//go:build unix

package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The flows that end the TUI from outside: q under a running sweep, and
// the signals a terminal or a system sends. Signals are Unix's, as tmux is.

// waitUntil polls cond until it holds, or fails after a deadline.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tuiCommand is the shell command a test terminal runs: the binary, its pid
// written to a file first (exec keeps the pid), then its exit status.
func tuiCommand(t *testing.T, env []string, args ...string) (command, pidFile string) {
	pidFile = filepath.Join(t.TempDir(), "pid")
	env = append(env, "XDG_CONFIG_HOME="+filepath.Join(t.TempDir(), "config"), "XDG_CACHE_HOME="+t.TempDir(), "TERM=xterm-256color")
	inner := fmt.Sprintf("echo $$ > %s; exec %s %s", pidFile, builtBinary(t), strings.Join(args, " "))
	return fmt.Sprintf("env %s sh -c '%s'; echo EXIT:$?; sleep 60", strings.Join(env, " "), inner), pidFile
}

func pidOf(t *testing.T, pidFile string) int {
	t.Helper()
	var pid int
	waitUntil(t, "the pid file", func() bool {
		data, err := os.ReadFile(pidFile)
		_, scanErr := fmt.Sscan(string(data), &pid)
		return err == nil && scanErr == nil && pid > 0
	})
	return pid
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// vaultComplete fails when a sweep left the vault half-written: a temp
// file of an atomic write, a sweep journal (a commit cut between its two
// steps), a cursor file that does not parse.
func vaultComplete(t *testing.T, state, vault string) {
	t.Helper()
	filepath.WalkDir(vault, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("a temp file was left behind: %s", path)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(vault, ".clawvault", "clawvault-tui-sweep.journal.json")); err == nil {
		t.Error("the sweep journal was left behind: a commit was cut in two")
	}
	out, errOut, code := runCLI(t, "status", "--json", "--state-dir", state, "-v", vault)
	var doc struct {
		Cursors struct {
			Exists  bool   `json:"exists"`
			Corrupt string `json:"corrupt"`
		} `json:"cursors"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || !doc.Cursors.Exists || doc.Cursors.Corrupt != "" {
		t.Errorf("status after the sweep: exit %d %s, cursors %+v", code, errOut, doc.Cursors)
	}
}

// sweepInTerminal opens the TUI in a terminal and starts a sweep from the
// Jobs screen; it returns with the sweep's confirmation answered.
func sweepInTerminal(t *testing.T, state, vault string) (tm *terminal, pidFile string) {
	command, pidFile := tuiCommand(t, nil, "--state-dir", state, "-v", vault)
	tm = startTerminal(t, command, 100, 30)
	tm.waitText("9 candidates")
	tm.keys("5", "S")
	tm.waitText("This writes to the vault")
	tm.keys("y")
	return tm, pidFile
}

// q while a sweep writes asks first, then stops the sweep, waits for it and
// quits; the vault is left complete.
func TestEndToEndQuitDuringASweep(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	tm, _ := sweepInTerminal(t, state, vault)
	tm.keys("q") // it reaches the app while the sweep runs (it takes seconds)
	tm.waitText("#1 sweep is writing to the vault. Stop it and quit?")
	tm.keys("y")
	tm.waitText("EXIT:0")
	vaultComplete(t, state, vault)
}

// SIGTERM during a sweep: the terminal is restored, the sweep stopped and
// waited for, the exit status 128+15.
func TestEndToEndTerminateDuringASweep(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	tm, pidFile := sweepInTerminal(t, state, vault)
	tm.waitText("running")
	syscall.Kill(pidOf(t, pidFile), syscall.SIGTERM)
	s := tm.waitText("EXIT:143")
	if !strings.Contains(s, "stopping #1 sweep before exiting") || !strings.Contains(s, "ended by a signal (terminated)") {
		t.Errorf("the restored terminal does not say what happened:\n%s", s)
	}
	vaultComplete(t, state, vault)
}

// The --demo folder goes when the terminal does: a hangup (the tmux session
// killed, as a closed window would) ends the TUI, which removes it. So does
// kill -HUP, with 128+1.
func TestEndToEndHangupRemovesTheDemo(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"kill-session", "kill -HUP"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			command, pidFile := tuiCommand(t, []string{"TMPDIR=" + tmp}, "--demo")
			tm := startTerminal(t, command, 100, 30)
			tm.waitText("9 candidates")
			demos, _ := filepath.Glob(filepath.Join(tmp, "clawvault-tui-demo-*"))
			if len(demos) != 1 {
				t.Fatalf("demo folders: %v", demos)
			}
			pid := pidOf(t, pidFile)
			if how == "kill-session" {
				tm.tmux("kill-session", "-t", "e2e")
			} else {
				syscall.Kill(pid, syscall.SIGHUP)
				tm.waitText("EXIT:129")
			}
			waitUntil(t, "the end of the process", func() bool { return !alive(pid) })
			waitUntil(t, "the removal of "+demos[0], func() bool {
				_, err := os.Stat(demos[0])
				return errors.Is(err, os.ErrNotExist)
			})
		})
	}
}
