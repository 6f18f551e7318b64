package cli

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The end-to-end flows drive the real binary in a real terminal: tmux, with
// send-keys and capture-pane. They wait for what the screen must show (a
// poll with a deadline), never for a fixed time.

type terminal struct {
	t      *testing.T
	socket string
}

func (tm *terminal) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (tm *terminal) screen() string { return tm.tmux("capture-pane", "-p", "-t", "e2e") }

func (tm *terminal) keys(keys ...string) {
	tm.tmux(append([]string{"send-keys", "-t", "e2e"}, keys...)...)
}

// waitFor polls the screen until ok says yes, or fails after a deadline.
func (tm *terminal) waitFor(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := tm.screen()
		if ok(s) {
			return s
		}
		if strings.Contains(s, "EXIT:") {
			tm.t.Fatalf("the program ended before the screen showed %s:\n%s", what, s)
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (tm *terminal) waitText(text string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// startTerminal runs command in a new tmux server of its own, width×height.
func startTerminal(t *testing.T, command string, width, height int) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("end-to-end flows are not short")
	}
	tm := &terminal{t: t, socket: fmt.Sprintf("cvtui-e2e-%d", rand.Int64())}
	t.Cleanup(func() { exec.Command("tmux", "-L", tm.socket, "kill-server").Run() })
	tm.tmux("new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), command)
	return tm
}

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// builtBinary builds clawvault-tui once per test binary, for the tests that
// run it as a process; TestMain removes it.
func builtBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "cvtui-bin-"); binErr != nil {
			return
		}
		if out, err := exec.Command("go", "build", "-o", binDir, "clawvault-tui").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatalf("build: %v", binErr)
	}
	return filepath.Join(binDir, "clawvault-tui")
}

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end flows are not short")
	}
	bin := builtBinary(t)
	state, vault := demoCopy(t)
	command := fmt.Sprintf("env XDG_CONFIG_HOME=%s TERM=xterm-256color %s --state-dir %s -v %s; echo EXIT:$?; sleep 60",
		filepath.Join(t.TempDir(), "config"), bin, state, vault)
	tm := startTerminal(t, command, 100, 30)

	t.Run("find the 14 MB main session and read its diagnosis", func(t *testing.T) {
		tm.t = t
		s := tm.waitText("overdue: 47× the threshold")
		if !regexp.MustCompile(`▸ ! agent:main:main\s`).MatchString(s) {
			t.Errorf("the main session is not the first, selected row:\n%s", s)
		}
		tm.waitText("Observed never · 14 MiB pending of a 300 KiB threshold")
	})
	t.Run("open its transcript and jump to a compaction", func(t *testing.T) {
		tm.t = t
		tm.keys("Enter")
		tm.waitText("10 compactions")
		tm.keys("[")
		compaction := regexp.MustCompile(`compaction  [0-9a-f]{8} · line \d+`)
		tm.waitFor("a compaction's detail", compaction.MatchString)
		tm.waitText("tokens before · keeps from")
	})
	t.Run("a dry-run sweep from Jobs lists the session", func(t *testing.T) {
		tm.t = t
		tm.keys("5", "d")
		s := tm.waitText("would be observed")
		if !strings.Contains(s, "agent:main:main") {
			t.Errorf("the main session is not among the candidates:\n%s", s)
		}
	})
	t.Run("resize the terminal mid-flow", func(t *testing.T) {
		tm.t = t
		tm.tmux("resize-window", "-t", "e2e", "-x", "80", "-y", "24")
		tm.waitFor("the jobs screen redrawn at 80×24", func(s string) bool {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			if len(lines) > 24 || !strings.Contains(s, "would be observed") {
				return false
			}
			for _, l := range lines {
				if len([]rune(l)) > 80 {
					return false
				}
			}
			return true
		})
		tm.keys("1")
		tm.waitText("all agents")
	})
	t.Run("sweep from Jobs after a confirmation; the candidates are observed", func(t *testing.T) {
		tm.t = t
		tm.keys("5", "S")
		tm.waitText("This writes to the vault")
		tm.keys("y")
		tm.waitText("done observed 8 session(s)")
		tm.keys("1")
		tm.waitText("· 0 candidates ·")
	})
	t.Run("quit cleanly", func(t *testing.T) {
		tm.t = t
		tm.keys("q")
		deadline := time.Now().Add(20 * time.Second)
		for !strings.Contains(tm.screen(), "EXIT:0") {
			if time.Now().After(deadline) {
				t.Fatalf("q did not end the program:\n%s", tm.screen())
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

}
