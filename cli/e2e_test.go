package cli

import (
	"fmt"
	"io/fs"
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
	if testing.Short() {
		t.Skip("end-to-end flows are not short")
	}
	needProgram(t, "tmux", "the end-to-end flows drive the TUI in a real terminal")
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
// run it as a process; TestMain removes it. -short (make check) skips
// those tests: linking the binary is most of their time.
func builtBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary (not in -short)")
	}
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
	t.Parallel()
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
		s := tm.waitText("Observed never · 14 MiB pending of a 300 KiB threshold")
		if !regexp.MustCompile(`▸ ! main:main\s`).MatchString(s) {
			t.Errorf("the main session is not the first, selected row:\n%s", s)
		}
		tm.keys("J") // the rest of the detail
		tm.waitText("overdue: 47× the threshold")
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
		tm.waitText("done observed 9 sessions")
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

// The curating flows: search a word planted in MEMORY.md, edit its line
// and save; a change made outside while the file is open conflicts and
// loses nothing; promote an observation into MEMORY.md, once; a file that
// became a link out of the workspace is refused.
func TestEndToEndCurating(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end flows are not short")
	}
	bin := builtBinary(t)
	state, vault := demoCopy(t)
	memory := filepath.Join(state, "workspace", "MEMORY.md")
	original, err := os.ReadFile(memory)
	if err != nil {
		t.Fatal(err)
	}
	planted := string(original) + "- The quokka review is on Fridays.\n"
	if err := os.WriteFile(memory, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "data")
	// An editor x/editor does not know: it gets +LINE all the same.
	scripts := t.TempDir()
	editorLog := filepath.Join(scripts, "editor.log")
	editor := filepath.Join(scripts, "myeditor")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\necho \"$@\" > "+editorLog+"\necho '- Written by another editor.' >> \"$2\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	command := fmt.Sprintf("env XDG_CONFIG_HOME=%s XDG_CACHE_HOME=%s XDG_DATA_HOME=%s VISUAL= EDITOR=%s TERM=xterm-256color %s --state-dir %s -v %s; echo EXIT:$?; sleep 60",
		filepath.Join(t.TempDir(), "config"), filepath.Join(t.TempDir(), "cache"), data, editor, bin, state, vault)
	tm := startTerminal(t, command, 100, 30)
	read := func() string {
		b, err := os.ReadFile(memory)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// leaveInput presses esc in the search input, and waits for it to let
	// go (a key right after esc would arrive as alt+key).
	leaveInput := func() {
		tm.keys("Escape")
		tm.waitText("E open in $EDITOR")
	}

	t.Run("search a planted word, edit its line at the hit, save", func(t *testing.T) {
		tm.t = t
		tm.waitText("56 sessions")
		tm.keys("4")
		tm.waitText("search:")
		tm.keys("quokka")
		tm.waitText("match 1 of 1")
		tm.waitText("[main] MEMORY.md:41")
		tm.keys("Enter")
		tm.waitText("✎ main's workspace MEMORY.md")
		tm.waitText("line 41/41")
		tm.keys("End", " Bring snacks.")
		tm.waitText("● modified")
		tm.keys("C-s")
		tm.waitText("saved · the previous version is in")
		want := string(original) + "- The quokka review is on Fridays. Bring snacks.\n"
		if got := read(); got != want {
			t.Fatalf("on disk:\n%s", got)
		}
	})
	t.Run("a change made outside meanwhile: the conflict shows, both versions stay, a merge takes both", func(t *testing.T) {
		tm.t = t
		theirs := strings.Replace(read(), "## People\n", "## People\n- Ana joins in December.\n", 1)
		if err := os.WriteFile(memory, []byte(theirs), 0o644); err != nil {
			t.Fatal(err)
		}
		tm.keys(" Vegan too.")
		tm.keys("C-s")
		s := tm.waitText("changed on disk since it was opened: nothing was written")
		if !strings.Contains(s, "Your version is kept in") {
			t.Errorf("where our version went is not said:\n%s", s)
		}
		if got := read(); got != theirs {
			t.Fatalf("the file changed outside was written over:\n%s", got)
		}
		found := false
		filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".unsaved.md") {
				b, _ := os.ReadFile(p)
				found = found || strings.Contains(string(b), "Bring snacks. Vegan too.")
			}
			return nil
		})
		if !found {
			backups, _ := exec.Command("find", data).CombinedOutput()
			t.Errorf("our version is not in the backups folder:\n%s", backups)
		}
		tm.keys("m")
		tm.waitText("merged with the version on disk")
		tm.keys("C-s")
		tm.waitText("saved")
		got := read()
		if !strings.Contains(got, "- Ana joins in December.\n") || !strings.Contains(got, "Fridays. Bring snacks. Vegan too.\n") {
			t.Fatalf("after the merge:\n%s", got)
		}
		tm.keys("Escape")
		tm.waitText("search: quokka")
	})
	t.Run("E opens $EDITOR at the hit's line; the file is read again", func(t *testing.T) {
		tm.t = t
		// Back from the built-in editor the list has the keyboard (enter
		// on a hit took it from the input).
		tm.waitText("E open in $EDITOR")
		tm.keys("E")
		tm.waitText("back from the editor")
		log, err := os.ReadFile(editorLog)
		if err != nil || strings.TrimSpace(string(log)) != "+42 "+memory {
			t.Errorf("the editor was given %q (%v), want +42 and the file", log, err)
		}
		tm.keys("/")
		tm.keys("C-u")
		tm.keys("written another editor")
		tm.waitText("match 1 of 1")
		tm.waitText("[main] MEMORY.md:43")
	})
	t.Run("promote an observation into MEMORY.md, once", func(t *testing.T) {
		tm.t = t
		tm.keys("C-u")
		tm.keys(`"legacy CSV export" type:decision`)
		tm.waitText("decision i=")
		leaveInput()
		tm.keys("p")
		tm.waitText("Promote to main's MEMORY.md")
		tm.keys("G", "Enter")
		tm.waitText("new section:")
		tm.keys("Decisions", "Enter")
		tm.waitText("added to main's MEMORY.md § Decisions")
		tm.keys("p")
		tm.waitText("Promote to main's MEMORY.md")
		tm.keys("Enter")
		tm.waitText("already in main's MEMORY.md at line")
		got := read()
		if n := strings.Count(got, "We decided to drop the legacy CSV export"); n != 1 || !strings.Contains(got, "\n## Decisions\n- ") {
			t.Errorf("the sentence is in MEMORY.md %d times:\n%s", n, got)
		}
	})
	t.Run("a file that became a link out of the workspace is refused", func(t *testing.T) {
		tm.t = t
		tm.keys("3")
		tm.waitText("main's workspace")
		// The last file of the tree: work's newest daily note.
		notes, _ := filepath.Glob(filepath.Join(state, "workspace-work", "memory", "*.md"))
		if len(notes) == 0 {
			t.Fatal("work has no daily notes")
		}
		note := notes[len(notes)-1]
		tm.keys("G")
		tm.waitText(filepath.Base(note) + "  ")
		outside := filepath.Join(t.TempDir(), "outside.md")
		if err := os.WriteFile(outside, []byte("not memory\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(note); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, note); err != nil {
			t.Fatal(err)
		}
		tm.keys("e")
		s := tm.waitText("cannot edit: not in the vault or an agent's workspace")
		if strings.Contains(s, "✎") {
			t.Errorf("the editor opened:\n%s", s)
		}
		if b, _ := os.ReadFile(outside); string(b) != "not memory\n" {
			t.Errorf("the outside file changed: %q", b)
		}
	})
	t.Run("quit", func(t *testing.T) {
		tm.t = t
		tm.keys("q")
		tm.waitText("EXIT:0")
	})
}

// The search as the agent recalls, on the demo's SQLite agent without
// its provider's key: memory_search gives nothing, the keyword-only
// ranking is offered under its label, every file says why, and enter
// edits the hit at its line.
func TestEndToEndRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end flows are not short")
	}
	bin := builtBinary(t)
	state, vault := demoCopy(t)
	// Its own cache: the Search screen indexes the vault, and the search
	// tests look for their index's segments in the package's cache.
	command := fmt.Sprintf("env -u OPENAI_API_KEY -u VISUAL -u EDITOR XDG_CONFIG_HOME=%s XDG_DATA_HOME=%s XDG_CACHE_HOME=%s TERM=xterm-256color %s --state-dir %s -v %s; echo EXIT:$?; sleep 60",
		filepath.Join(t.TempDir(), "config"), filepath.Join(t.TempDir(), "data"), filepath.Join(t.TempDir(), "cache"), bin, state, vault)
	tm := startTerminal(t, command, 80, 24)
	tm.waitText("1 Sessions")
	tm.keys("4")
	tm.waitText("search: ")
	tm.keys("C-r")
	tm.waitText("recall: ")
	tm.keys("VPN gateway", "Enter")
	tm.waitText("NOT what the agent gets")
	tm.waitText("provider-unavailable")
	tm.keys("f")
	tm.waitText("memory/2026-11-20.md")
	tm.keys("f", "Enter")
	tm.waitText("ctrl+s")
	tm.keys("Escape")
	tm.waitText("recall: ")
	tm.keys("q")
	tm.waitText("EXIT:0")
}
